package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/sim"
)

// runCmd runs the program in-process and returns stdout, stderr and error.
func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, &out, &errb)
	return out.String(), errb.String(), err
}

func TestHelpListsCommands(t *testing.T) {
	out, _, err := runCmd(t, "help")
	if err != nil {
		t.Fatal(err)
	}
	for name := range commands {
		if !strings.Contains(out, "  "+name+" ") {
			t.Errorf("help does not list %s:\n%s", name, out)
		}
	}
}

func TestBadUsageIsAUsageError(t *testing.T) {
	cases := [][]string{
		{"frobnicate"},
		{"simulate", "--game", "chess"},
		{"simulate", "--players", "hold:20,always-roll"},
		{"simulate", "--games", "0"},
		{"simulate", "--nope"},
		{"simulate", "--players", strings.TrimSuffix(strings.Repeat("hold:20,", 11), ",")},
		{"verify"},
	}
	for _, args := range cases {
		_, _, err := runCmd(t, args...)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	_, _, err := runCmd(t, "simulate", "--game", "chess")
	if !strings.Contains(err.Error(), "pig, two-dice, big-pig, hog") {
		t.Errorf("bad game: %q does not name the valid ones", err)
	}
}

func TestSimulateJSONContract(t *testing.T) {
	out, _, err := runCmd(t, "simulate", "--players", "hold:20,kper", "--games", "20000", "--seed", "s", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Games     int     `json:"games"`
		MeanTurns float64 `json:"mean_turns"`
		Players   []struct {
			Strategy string     `json:"strategy"`
			Wins     int        `json:"wins"`
			WinRate  float64    `json:"win_rate"`
			CI95     [2]float64 `json:"ci95"`
		} `json:"players"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Games != 20000 || len(got.Players) != 2 || got.Players[0].Strategy != "hold:20" || got.Players[1].Strategy != "kper" {
		t.Fatalf("%+v", got)
	}
	wins := 0
	for _, p := range got.Players {
		wins += p.Wins
		if p.WinRate != float64(p.Wins)/20000 || p.CI95[0] > p.WinRate || p.CI95[1] < p.WinRate {
			t.Errorf("player %+v", p)
		}
	}
	if wins != 20000 || got.MeanTurns < 10 {
		t.Errorf("wins %d, mean turns %v", wins, got.MeanTurns)
	}
	again, _, _ := runCmd(t, "simulate", "--players", "hold:20,kper", "--games", "20000", "--seed", "s", "--json", "--workers", "1")
	if strings.Split(again, `"seconds"`)[0] != strings.Split(out, `"seconds"`)[0] {
		t.Errorf("same seed, one worker, different result:\n%s\n%s", out, again)
	}
}

func TestVerifyCommand(t *testing.T) {
	m, _ := sim.NewMatch(sim.Standard(sim.Pig), testSeeds.Seed())
	for !m.State().Over {
		s := m.State()
		m.Apply(s.Seat, sim.HoldAt(20).Decide(s.Position()))
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	b, _ := json.Marshal(m.Record())
	os.WriteFile(good, b, 0o644)
	out, _, err := runCmd(t, "verify", good)
	if err != nil || !strings.HasPrefix(out, "UNPROVEN ") || !strings.Contains(out, "dice: OK") || !strings.Contains(out, "moves: OK") ||
		!strings.Contains(out, "decisions are not proven") {
		t.Fatalf("unsigned: %v\n%s", err, out)
	}
	// Signed: OK; with the key's fingerprint, proven; with another
	// fingerprint, or changed after signing, refused.
	key := ed25519.NewKeyFromSeed([]byte("the verify command's test key 32"))
	fp := sim.Fingerprint(key.Public().(ed25519.PublicKey))
	rec := m.Record()
	for i := range rec.Events {
		rec.Events[i].At = time.Date(2026, 11, 30, 9, 0, i, 0, time.UTC)
	}
	if _, err := rec.Sign(key); err != nil {
		t.Fatal(err)
	}
	rec.Events[3].At = time.Time{}
	if _, err := rec.Sign(key); err == nil {
		t.Error("a record with an event without its time was signed")
	}
	rec.Events[3].At = rec.Events[2].At
	signed, err := rec.Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.MarshalIndent(signed, "", "  ")
	os.WriteFile(good, b, 0o644)
	for _, c := range []struct {
		args   []string
		ok     bool
		want   string
		status string
	}{
		// Signed by a key no one named: any pigclass signs, so unproven.
		{[]string{good}, true, "signature: UNPROVEN, signed with the key " + fp, "UNPROVEN "},
		{[]string{"--fingerprint", strings.ToUpper(fp), good}, true, "decisions are proven", "OK "},
		{[]string{"--fingerprint", "0000 1111", good}, false, "not the server's 0000 1111", "FAIL "},
	} {
		out, _, err = runCmd(t, append([]string{"verify"}, c.args...)...)
		if (err == nil) != c.ok || !strings.HasPrefix(out, c.status) || !strings.Contains(out, c.want) {
			t.Errorf("verify %v: %v\n%s", c.args, err, out)
		}
	}
	signed.Variant.Deadline = sim.Duration(20 * time.Second)
	b, _ = json.Marshal(signed)
	forged := filepath.Join(dir, "forged.json")
	os.WriteFile(forged, b, 0o644)
	if out, _, err = runCmd(t, "verify", forged); !errors.Is(err, errVerifyFailed) || !strings.Contains(out, "moves: OK") || !strings.Contains(out, "signature: FAIL, the signature does not match") {
		t.Errorf("another deadline: %v\n%s", err, out)
	}
	// A game of whole-class Skunk's record.
	g, _ := sim.NewSkunk(testSeeds.Seed(), 3, 2)
	for !g.Over() {
		if g.Standing(0) && g.RoundTotal() >= 10 {
			g.Sit(0)
		}
		g.Roll()
	}
	sr := g.Record()
	for i := range sr.Events {
		sr.Events[i].At = time.Date(2026, 11, 30, 9, 0, i, 0, time.UTC)
	}
	sr, err = sr.Sign(key)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(sr)
	skunk := filepath.Join(dir, "skunk.json")
	os.WriteFile(skunk, b, 0o644)
	if out, _, err = runCmd(t, "verify", "--fingerprint", fp, skunk); err != nil || !strings.HasPrefix(out, "OK ") || !strings.Contains(out, "whole-class Skunk") || !strings.Contains(out, "decisions are proven") {
		t.Errorf("a Skunk record: %v\n%s", err, out)
	}
	if out, _, err = runCmd(t, "verify", skunk); err != nil || !strings.HasPrefix(out, "UNPROVEN ") || !strings.Contains(out, "signature: UNPROVEN, signed with the key "+fp) {
		t.Errorf("a Skunk record without --fingerprint: %v\n%s", err, out)
	}
	sr.Scores[0]++
	b, _ = json.Marshal(sr)
	os.WriteFile(skunk, b, 0o644)
	if out, _, err = runCmd(t, "verify", skunk); !errors.Is(err, errVerifyFailed) || !strings.Contains(out, "scores") {
		t.Errorf("a forged Skunk record: %v\n%s", err, out)
	}
	if out, _, err = runCmd(t, "verify", "../../sim/testdata/records/release0-hog.json"); err != nil || !strings.HasPrefix(out, "UNPROVEN ") ||
		!strings.Contains(out, "result: seat ") {
		t.Errorf("a record of the first release: %v\n%s", err, out)
	}

	r := m.Record()
	r.Events[len(r.Events)-1].Seat = 1 - r.Events[len(r.Events)-1].Seat
	bad := filepath.Join(dir, "bad.json")
	b, _ = json.Marshal(r)
	os.WriteFile(bad, b, 0o644)
	out, _, err = runCmd(t, "verify", bad)
	want := "event " + strconv.Itoa(len(r.Events)) + ":"
	if !errors.Is(err, errVerifyFailed) || !strings.HasPrefix(out, "FAIL ") || !strings.Contains(out, want) {
		t.Errorf("tampered record: %v\n%s (want %q)", err, out, want)
	}
}

// TestSimulateThreeSeatsWithOptimal: the perfect-play bot at a three-seat
// table, its table first asked for by that table (target 37 is asked for
// nowhere else), plays: the solved-table cache keys a table by the
// two-seat variant it solves.
func TestSimulateThreeSeatsWithOptimal(t *testing.T) {
	out, _, err := runCmd(t, "simulate", "--players", "optimal,hold:20,hold:20", "--target", "37", "--games", "3000", "--seed", "three", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got simOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	wins := 0
	for _, p := range got.Players {
		wins += p.Wins
	}
	if len(got.Players) != 3 || got.Players[0].Strategy != "optimal" || wins+got.Unfinished != 3000 {
		t.Errorf("%+v", got)
	}
}

// TestProxyconfRefusesBadInstances: overlapping or malformed instances,
// or no public URL, are usage errors that name what to fix.
func TestProxyconfRefusesBadInstances(t *testing.T) {
	for _, args := range [][]string{
		{"proxyconf", "--public-url", "http://x:8000"},
		{"proxyconf", "--public-url", "http://x:8000", "--instance", "A=nohost"},
		{"proxyconf", "--public-url", "http://x:8000", "--instance", "A=127.0.0.1:1", "--instance", "AB=127.0.0.1:2"},
		{"proxyconf", "--public-url", "x:8000", "--instance", "A=127.0.0.1:1"},
		{"proxyconf", "--public-url", "http://x:8000", "--instance", "O=127.0.0.1:1"},
	} {
		var u usageError
		if _, _, err := runCmd(t, args...); !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// TestVerifyATable (issue 45): pigclass verify says a table's throws
// entered by hand apart from the seed's, and refuses one changed.
func TestVerifyATable(t *testing.T) {
	v := sim.Standard(sim.Pig)
	v.Target = 20
	m, _ := sim.NewMatch(v, testSeeds.Seed())
	entered := 0
	for i := 0; !m.State().Over && i < 500; i++ {
		s := m.State()
		switch {
		case s.Seat == 1:
			m.Apply(1, sim.HoldAt(10).Decide(s.Position())) // a bot: the seed's dice
		case s.TurnTotal >= 10:
			m.Apply(0, sim.Hold)
		default:
			f, _ := sim.FacesOf(2 + i%5)
			m.Enter(0, sim.Roll, f)
			entered++
		}
	}
	path := filepath.Join(t.TempDir(), "table.json")
	b, _ := json.Marshal(m.Record())
	os.WriteFile(path, b, 0o644)
	out, _, err := runCmd(t, "verify", path)
	if err != nil || !strings.Contains(out, fmt.Sprintf("entered: %d throws entered by hand at a table", entered)) || !strings.Contains(out, "moves: OK") {
		t.Fatalf("a table's record: %v\n%s", err, out)
	}
	rec := m.Record()
	for i, e := range rec.Events {
		if e.Entered {
			rec.Events[i].Faces, _ = sim.FacesOf(7)
			break
		}
	}
	b, _ = json.Marshal(rec)
	os.WriteFile(path, b, 0o644)
	if out, _, err := runCmd(t, "verify", path); err == nil || !strings.Contains(out, "shows 1 to 6") {
		t.Errorf("a table's record with a 7 entered: %v\n%s", err, out)
	}
}

// testSeeds are the seeds the package's tests play: the same on every run.
var testSeeds = sim.NewStream(20261204)

// TestABadFlagIsSaidOnce (issue 59, item 16): every command given a flag
// it does not have, or a bad value, writes nothing itself; its one error
// names the flag once and ends with one line pointing to its --help,
// which lists the flags on standard output.
func TestABadFlagIsSaidOnce(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{name, "--no-such-flag"}} {
			out, errOut, err := runCmd(t, args...)
			var u usageError
			if !errors.As(err, &u) {
				t.Errorf("%v: %v, want a usage error", args, err)
				continue
			}
			lines := strings.Split(err.Error(), "\n")
			if out != "" || errOut != "" || len(lines) != 2 || strings.Count(err.Error(), "no-such-flag") != 1 ||
				lines[1] != `Run "pigclass `+name+` --help" for its flags.` {
				t.Errorf("%v: wrote %q and %q, said %q", args, out, errOut, err)
			}
		}
		out, _, err := runCmd(t, name, "--help")
		if err != nil || !strings.HasPrefix(out, "Usage: pigclass "+name) {
			t.Errorf("%s --help: %v, %.80q", name, err, out)
		}
	}
	_, _, err := runCmd(t, "proxyconf", "--instance", "B=127.0.0.1:18832")
	if lines := strings.Split(err.Error(), "\n"); len(lines) != 2 || !strings.Contains(lines[0], `code prefix "B"`) {
		t.Errorf("a bad prefix: %q", err)
	}
}
