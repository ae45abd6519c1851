package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// initLine is one package's line of GODEBUG=inittrace=1: its name and
// the bytes its initialisation allocated.
var initLine = regexp.MustCompile(`(?m)^init (\S+) @[^,]+, [^,]+ clock, (\d+) bytes`)

// TestACommandStartsWithoutParsing: a command pays at start only for
// what every command needs. The catalogs (16 MB and 150,000 allocations
// to parse), the static files' hashes and the like wait until a page or
// a word is asked for, so `pigclass version` allocates little before
// main. Bytes, not seconds: the count is the same on a busy machine.
// BenchmarkStart* time the same commands as processes.
func TestACommandStartsWithoutParsing(t *testing.T) {
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pigclass version: %v\n%s", err, out)
	}
	lines := initLine.FindAllStringSubmatch(string(out), -1)
	if len(lines) < 20 {
		t.Fatalf("%d lines of inittrace, want one a package:\n%s", len(lines), out)
	}
	const most, mostAll = 512 << 10, 2 << 20
	total := 0
	for _, m := range lines {
		n, _ := strconv.Atoi(m[2])
		total += n
		if n > most {
			t.Errorf("%s allocates %d bytes when the program starts, want under %d: make it wait until it is used", m[1], n, most)
		}
	}
	if total > mostAll {
		t.Errorf("the packages allocate %d bytes before main, want under %d", total, mostAll)
	}
}

// benchCommand runs the built binary with args b.N times, as a process.
func benchCommand(b *testing.B, args ...string) {
	bin, err := buildBinary()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			b.Fatalf("pigclass %v: %v\n%s", args, err, out)
		}
	}
}

// BenchmarkStartVersion is `pigclass version` as a process: issue 60
// asks under 20 ms.
//
//	go test ./cmd/pigclass -run X -bench Start -count 10
func BenchmarkStartVersion(b *testing.B) { benchCommand(b, "version") }

// BenchmarkStartDuelEqualTurns is `pigclass duel --equal-turns`, perfect
// play against hold at 20 in Pig to 100, as a process: under 200 ms.
func BenchmarkStartDuelEqualTurns(b *testing.B) {
	benchCommand(b, "duel", "--game", "pig", "--equal-turns", "--first", "optimal", "--second", "hold:20")
}

// BenchmarkStartDuel is the same duel without equal turns.
func BenchmarkStartDuel(b *testing.B) {
	benchCommand(b, "duel", "--game", "pig", "--first", "optimal", "--second", "hold:20")
}
