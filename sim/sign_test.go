package sim

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// testKey is a fixed signing key for the tests.
var testKey = ed25519.NewKeyFromSeed([]byte("pigclass test signing key 32 byt"))

// stamped returns the match's record with a time on every event, a second
// apart, as the server stores them.
func stamped(m *Match) Record {
	r := m.Record()
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	for i := range r.Events {
		r.Events[i].At = t0.Add(time.Duration(i) * time.Second)
	}
	return r
}

func signed(t *testing.T, r Record) Record {
	t.Helper()
	s, err := r.Sign(testKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func indented(t *testing.T, r Record) []byte {
	t.Helper()
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEarlierRecordsVerify: real records of the earlier releases (made by
// their own code, see testdata/records/README.md) check out as they are,
// unsigned; the earliest leave out a Hog throw's points when 0.
func TestEarlierRecordsVerify(t *testing.T) {
	files, _ := filepath.Glob("testdata/records/*.json")
	if len(files) < 4 {
		t.Fatalf("%d record fixtures, want the four of testdata/records", len(files))
	}
	omitted := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := VerifyJSON(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if got.Format != 0 || got.Signature.Signed || !got.State.Over {
			t.Errorf("%s: format %d, signed %v, over %v; want 0, false, true", f, got.Format, got.Signature.Signed, got.State.Over)
		}
		var r Record
		json.Unmarshal(b, &r)
		if r.Variant.Game == Hog {
			omitted += strings.Count(string(b), `"dice:`) - strings.Count(string(b), `"points"`)
		}
	}
	if omitted == 0 {
		t.Error("no fixture leaves out a Hog throw's 0 points: the earliest format is not tested")
	}
	// Leaving out points is the earliest format's alone.
	b, _ := os.ReadFile("testdata/records/release0-hog.json")
	var m map[string]any
	json.Unmarshal(b, &m)
	m["format"] = RecordFormat
	for _, e := range m["events"].([]any) {
		e.(map[string]any)["at"] = "2026-11-30T09:00:00Z"
	}
	b, _ = json.Marshal(m)
	var ve *VerifyError
	if _, err := VerifyJSON(b); !errors.As(err, &ve) || ve.Problem != ProblemNoPoints {
		t.Errorf("a format %d record without a throw's 0 points: %v, want %s", RecordFormat, err, ProblemNoPoints)
	}
}

// TestSignedRecordChecksOut: a signed record, indented or not, checks out
// with its signature valid and the key's fingerprint; a format 2 record
// needs every event's time, in order.
func TestSignedRecordChecksOut(t *testing.T) {
	for _, g := range Games {
		v := Standard(g)
		v.Seats = 3
		r := signed(t, stamped(botMatch(t, v, exampleSeed())))
		for _, b := range [][]byte{indented(t, r), must(json.Marshal(r))} {
			got, err := VerifyJSON(b)
			if err != nil || !got.Signature.Valid() || got.Format != RecordFormat {
				t.Fatalf("%v: err %v, signature %+v, format %d", v, err, got.Signature, got.Format)
			}
			if !slices.Equal(got.Signature.Key, testKey.Public().(ed25519.PublicKey)) {
				t.Errorf("%v: key %x", v, got.Signature.Key)
			}
		}
	}
	fp := Fingerprint(testKey.Public().(ed25519.PublicKey))
	if len(fp) != 39 || !SameFingerprint(fp, strings.ToUpper(strings.ReplaceAll(fp, " ", ":"))) || SameFingerprint(fp, "") {
		t.Errorf("fingerprint %q", fp)
	}
	r := stamped(botMatch(t, Standard(Pig), exampleSeed()))
	r.Format = RecordFormat
	r.Events[2].At = time.Time{}
	var ve *VerifyError
	if _, err := VerifyJSON(must(json.Marshal(r))); !errors.As(err, &ve) || ve.Event != 3 || ve.Field != "at" || ve.Problem != ProblemMissing {
		t.Errorf("format 2 without an event's time: %v", err)
	}
	r = stamped(botMatch(t, Standard(Pig), exampleSeed()))
	r.Events[4].At = r.Events[2].At
	if _, err := VerifyJSON(must(json.Marshal(r))); !errors.As(err, &ve) || ve.Event != 5 || ve.Problem != ProblemTime {
		t.Errorf("an event stored before the one before it: %v", err)
	}
	r.Format = 7
	if _, err := VerifyJSON(must(json.Marshal(r))); !errors.As(err, &ve) || ve.Problem != ProblemFormat {
		t.Errorf("format 7: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestSignatureCoversEveryField changes each value of a signed record in
// turn, adds a member to each object and takes each member away: no
// change leaves a record that checks out with a valid signature.
func TestSignatureCoversEveryField(t *testing.T) {
	hog := Standard(Hog)
	hog.Deadline = Duration(10 * time.Second)
	for _, v := range []Variant{Standard(Pig), hog} {
		rec := signed(t, stamped(botMatch(t, v, exampleSeed())))
		var tree any
		json.Unmarshal(indented(t, rec), &tree)
		changes := 0
		var walk func(path string, node any, set func(any))
		walk = func(path string, node any, set func(any)) {
			try := func(what string, value any) {
				changes++
				set(value)
				b := must(json.Marshal(tree))
				set(node)
				got, err := VerifyJSON(b)
				if err == nil && got.Signature.Valid() {
					t.Errorf("%v: %s %s: still checks out, signature valid", v.Game, path, what)
				}
			}
			switch n := node.(type) {
			case map[string]any:
				for k, child := range n {
					if path == "" && k == "signature" {
						continue
					}
					walk(path+"."+k, child, func(x any) { n[k] = x })
					delete(n, k)
					try("removed "+k, n)
					n[k] = child
				}
				n["extra"] = 0
				try("added a member", n)
				delete(n, "extra")
			case []any:
				for i, child := range n {
					walk(fmt.Sprintf("%s[%d]", path, i), child, func(x any) { n[i] = x })
				}
			case float64:
				try("changed", n+1)
			case string:
				if at, err := time.Parse(time.RFC3339Nano, n); err == nil {
					try("changed", at.Add(time.Millisecond).Format(time.RFC3339Nano))
				} else {
					try("changed", n+"0")
				}
			case bool:
				try("changed", !n)
			}
		}
		walk("", tree, func(any) {})
		if changes < 100 {
			t.Errorf("%v: %d changes tried", v.Game, changes)
		}
	}
}

// forge replays rec's actions with the one at i changed to a (the rest as
// recorded while the rules allow them, then hold-at-20 or five dice to the
// end): a record whose dice come from the seed and whose moves follow the
// rules, as a forger who knows the seed would make it.
func forge(t *testing.T, rec Record, i int, a Action) Record {
	t.Helper()
	m, err := NewMatch(rec.Variant, rec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for j, e := range rec.Events {
		if m.State().Over {
			break
		}
		act := e.Action
		if j == i {
			act = a
		}
		if _, err := m.Apply(m.State().Seat, act); err != nil && j == i {
			t.Fatalf("forging event %d as %v: %v", i+1, a, err)
		}
	}
	for !m.State().Over {
		s := m.State()
		act := HoldAt(20).Decide(s.Position())
		if s.Variant.Game == Hog {
			act = Dice(5)
		}
		m.Apply(s.Seat, act)
	}
	f := stamped(m)
	f.Format = RecordFormat
	return f
}

// TestForgeriesOfSignedRecords: the forgeries that keep the true dice and
// follow the rules (a time-out made a hold and a hold a time-out, a Hog
// time-out made a throw, more dice on a throw that busted anyway, another
// deadline, a record cut short) check out on dice and rules alone, so
// unsigned they are reported as not proven, and signed they are refused.
func TestForgeriesOfSignedRecords(t *testing.T) {
	pigV := Standard(Pig)
	pigV.Deadline = Duration(10 * time.Second)
	hogV := Standard(Hog)
	hogV.Deadline = Duration(10 * time.Second)
	play := func(v Variant, timeoutAt ...int) Record {
		m, _ := NewMatch(v, exampleSeed())
		for n := 0; !m.State().Over; n++ {
			s := m.State()
			act := HoldAt(20).Decide(s.Position())
			if v.Game == Hog {
				act = Dice(3)
			}
			if slices.Contains(timeoutAt, n) {
				act = Timeout
			}
			if _, err := m.Apply(s.Seat, act); err != nil {
				t.Fatal(err)
			}
		}
		return signed(t, stamped(m))
	}
	pig, hog := play(pigV, 4), play(hogV, 3)
	index := func(r Record, want func(Event) bool) int {
		for i, e := range r.Events {
			if want(e) {
				return i
			}
		}
		t.Fatal("no such event")
		return -1
	}
	timeout := func(e Event) bool { return e.Action == Timeout }
	hold := func(e Event) bool { return e.Action == Hold }
	bust := index(hog, func(e Event) bool { return e.Action.Kind == DiceKind && e.Points == 0 })
	type forgery struct {
		name   string
		signed Record
		forged Record
	}
	deadline := pig
	deadline.Variant.Deadline = Duration(30 * time.Second)
	cut := pig
	cut.Events = pig.Events[:len(pig.Events)-3]
	cut.Result = nil
	forgeries := []forgery{
		{"a time-out made a hold", pig, forge(t, pig, index(pig, timeout), Hold)},
		{"a hold made a time-out", pig, forge(t, pig, index(pig, hold), Timeout)},
		{"a Hog time-out made a throw", hog, forge(t, hog, index(hog, timeout), Dice(6))},
		{"more dice on a throw that busted", hog, forge(t, hog, bust, Dice(8))},
		{"another deadline", pig, deadline},
		{"cut short", pig, cut},
	}
	if f := forgeries[3].forged.Events[bust]; f.Points != 0 || f.Action != Dice(8) {
		t.Fatalf("the more-dice forgery did not bust: %+v", f)
	}
	for _, f := range forgeries {
		f.forged.Signature = nil
		unsigned, err := VerifyJSON(must(json.Marshal(f.forged)))
		if err != nil {
			t.Errorf("%s: the forgery does not even pass dice and rules: %v", f.name, err)
			continue
		}
		if unsigned.Signature.Signed {
			t.Errorf("%s: unsigned reported signed", f.name)
		}
		f.forged.Signature = f.signed.Signature
		got, err := VerifyJSON(must(json.Marshal(f.forged)))
		if err != nil || !got.Signature.Signed || !errors.Is(got.Signature.Err, ErrSignatureMismatch) {
			t.Errorf("%s with the true record's signature: err %v, signature %+v; want a mismatch", f.name, err, got.Signature)
		}
	}
	// Re-signed with another key, the forgery is valid, but not by the
	// server's key: the fingerprint tells them apart.
	other := ed25519.NewKeyFromSeed([]byte("someone else's key, 32 bytes lon"))
	f, _ := forgeries[0].forged.Sign(other)
	got, err := VerifyJSON(must(json.Marshal(f)))
	if err != nil || !got.Signature.Valid() || SameFingerprint(Fingerprint(got.Signature.Key), Fingerprint(testKey.Public().(ed25519.PublicKey))) {
		t.Errorf("re-signed with another key: %v, %+v", err, got.Signature)
	}
}
