package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// buildBinary builds pigclass once for the tests that run it as a process.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "pigclass-bin")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil { // the fault tests run it as another user
		return "", err
	}
	bin := filepath.Join(dir, "pigclass")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{string(out)}
	}
	return bin, nil
})

type buildError struct{ out string }

func (e *buildError) Error() string { return "go build: " + e.out }

// process is the server running as its own process.
type process struct {
	cmd  *exec.Cmd
	base string
}

var servingAt = regexp.MustCompile(`pigclass is serving"? url=(http://\S+)`)

// startProcess runs `pigclass serve` on addr and db for a load and waits
// until it says where it serves.
func startProcess(t *testing.T, bin, addr, db string) *process {
	t.Helper()
	// The load plays without think time: more moves a second than a hand
	// makes, as the guide's load commands allow.
	return startServe(t, bin, "--addr", addr, "--db", db, "--moves-per-second", "1000")
}

// startServe runs `pigclass serve` with args alone (the environment's
// settings cleared) and waits until it says where it serves; the test's
// end kills it.
func startServe(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), "PIGCLASS_ADDR=", "PIGCLASS_DB=", "PIGCLASS_KEY=", "PIGCLASS_PUBLIC_URL=", "PIGCLASS_CODE_PREFIX=", "PIGCLASS_TRUSTED_PROXY=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	ended := make(chan []string, 1) // what it said, if it ended before serving
	go func() {
		var said []string
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := servingAt.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				io.Copy(io.Discard, stderr)
				return
			}
			said = append(said, sc.Text())
		}
		ended <- said
	}()
	select {
	case base := <-found:
		return &process{cmd: cmd, base: base}
	case said := <-ended:
		t.Fatalf("pigclass serve %s ended without serving:\n%s", strings.Join(args, " "), strings.Join(said, "\n"))
	case <-time.After(60 * time.Second):
		t.Fatalf("pigclass serve %s did not start within 60 s", strings.Join(args, " "))
	}
	return nil
}

// TestCrashUnderLoad: the server, a process of its own, is killed with
// SIGKILL in the middle of a load and started again on the same database.
// Every acknowledged action is stored exactly once, no answer is a 5xx,
// and every student plays on after the restart.
func TestCrashUnderLoad(t *testing.T) {
	t.Parallel() // it waits on its processes, or fills a core the waiting ones leave
	if testing.Short() {
		t.Skip("builds and kills the server")
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "crash.db")
	first := startProcess(t, bin, "127.0.0.1:0", db)
	addr := strings.TrimPrefix(first.base, "http://")

	restarted := make(chan time.Duration, 1)
	time.AfterFunc(2500*time.Millisecond, func() {
		first.cmd.Process.Signal(syscall.SIGKILL)
		first.cmd.Wait()
		begin := time.Now()
		startProcess(t, bin, addr, db)
		restarted <- time.Since(begin)
	})
	rep, err := loadtest(context.Background(), loadConfig{url: first.base, students: 50, duration: 8 * time.Second, teachers: 1, target: 100, holdAt: 20, seed: 7}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-restarted:
		t.Logf("restarted in %s; %d actions, errors %v, %d rounds", d.Round(time.Millisecond), rep.Actions, rep.Errors, rep.Rounds)
	default:
		t.Fatal("the server was not restarted during the load")
	}
	if rep.Lost != 0 || rep.Doubled != 0 || rep.Stored < rep.Actions {
		t.Errorf("%d acknowledged, %d stored: %d lost, %d doubled", rep.Actions, rep.Stored, rep.Lost, rep.Doubled)
	}
	for status, n := range rep.Errors {
		if status != "transport" {
			t.Errorf("%d answers %s", n, status)
		}
	}
	if rep.Errors["transport"] == 0 {
		t.Error("no request failed: the kill did not happen under load")
	}
	if rep.Stalled != 0 {
		t.Errorf("%d of %d students did not play on after the restart: %v", rep.Stalled, rep.Joined, rep.StalledLast)
	}
}
