package server

import (
	"net/url"
	"strconv"
	"sync"
	"testing"
)

// TestConcurrentClass: thirty students play at once while the teacher's
// dashboard and the projector poll; every decision is stored exactly once.
func TestConcurrentClass(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole class at once")
	}
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	var students []*student
	for i := range 30 {
		students = append(students, &student{b: join(t, a, code, "s"+strconv.Itoa(i)), nick: "s" + strconv.Itoa(i), holdAt: 10 + i%20})
	}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"pairs"}, "bot": {"hold:20"}})
	var wg sync.WaitGroup
	done := make(chan struct{})
	for _, s := range students {
		wg.Go(func() {
			for i := 0; i < 5000 && s.step(t, code); i++ {
			}
		})
	}
	poller := a.browser()
	poller.c.Jar = teacher.c.Jar
	polls := 0
	go func() {
		wg.Wait()
		close(done)
	}()
	for {
		select {
		case <-done:
			rows := teacher.csvRows("/t/" + code + "/decisions.csv")
			made, stored := 0, 0
			for _, s := range students {
				made += s.actions
			}
			for _, r := range rows {
				if r["by"] == "student" {
					stored++
				}
			}
			if made != stored || made == 0 || polls == 0 {
				t.Errorf("%d decisions made, %d stored (%d polls)", made, stored, polls)
			}
			return
		default:
			poller.get("/t/" + code + "/live")
			poller.get("/t/" + code + "/projector/live")
			polls++
		}
	}
}
