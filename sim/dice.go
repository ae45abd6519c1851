package sim

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Seed is the secret of one match: 32 random bytes, written as 64 hex digits.
// Every die of the match and its first player come from it (see dice.md).
type Seed [32]byte

// NewSeed draws a seed from crypto/rand.
func NewSeed() Seed {
	var s Seed
	rand.Read(s[:]) // never returns an error (crypto/rand documents this)
	return s
}

// ParseSeed reads 64 hex digits.
func ParseSeed(s string) (Seed, error) {
	var seed Seed
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(seed) {
		return seed, fmt.Errorf("seed %q: must be 64 hex digits (32 bytes)", s)
	}
	copy(seed[:], b)
	return seed, nil
}

// String returns the seed as 64 lowercase hex digits.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment returns SHA-256 of the seed's 32 bytes, as 64 hex digits. It is
// shown when a match starts, so the seed published at its end can be checked.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// MarshalText writes the seed as hex.
func (s Seed) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads the seed from hex.
func (s *Seed) UnmarshalText(b []byte) error {
	v, err := ParseSeed(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Labels that separate the uses of a seed (see dice.md).
const (
	diceLabel    = "pigclass-dice-v1\x00"
	firstLabel   = "pigclass-first-v1\x00"
	mysteryLabel = "pigclass-mystery-v1\x00"
)

// Faces is one throw: the marks its pieces show, at most MaxDiceLimit of
// them, kept in a fixed array so that throwing does not allocate. A die's
// marks are its faces, 1 to 6; other pieces number their marks from 1 as
// their game describes them (GameRules.Piece), up to 9.
type Faces struct {
	n uint8
	d [MaxDiceLimit]uint8
}

// maxMark is the highest mark a piece may show (one digit when written).
const maxMark = 9

// Len returns the number of pieces.
func (f *Faces) Len() int { return int(f.n) }

// At returns piece i's mark (a die's face, 1 to 6).
func (f *Faces) At(i int) int { return int(f.d[i]) }

// Ints returns the marks as a new slice.
func (f Faces) Ints() []int {
	out := make([]int, f.n)
	for i := range out {
		out[i] = int(f.d[i])
	}
	return out
}

// FacesOf builds Faces from a slice of marks, each from 1 to 9; whether
// they are marks the game's pieces show is the game's to say (Fits).
func FacesOf(marks ...int) (Faces, error) {
	var f Faces
	if len(marks) > MaxDiceLimit {
		return f, fmt.Errorf("faces: %d pieces, at most %d", len(marks), MaxDiceLimit)
	}
	for i, d := range marks {
		if d < 1 || d > maxMark {
			return f, fmt.Errorf("faces: piece %d shows %d, must be 1 to %d", i+1, d, maxMark)
		}
		f.d[i] = uint8(d)
	}
	f.n = uint8(len(marks))
	return f, nil
}

// push adds one die.
func (f *Faces) push(d int) { f.d[f.n] = uint8(d); f.n++ }

// Sum returns the total of the dice.
func (f *Faces) Sum() int {
	t := 0
	for _, d := range f.d[:f.n] {
		t += int(d)
	}
	return t
}

// Ones returns how many dice show 1.
func (f *Faces) Ones() int {
	c := 0
	for _, d := range f.d[:f.n] {
		if d == 1 {
			c++
		}
	}
	return c
}

// String writes the faces as "3 5".
func (f Faces) String() string {
	b := make([]byte, 0, 2*f.n)
	for i, d := range f.d[:f.n] {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, '0'+d)
	}
	return string(b)
}

// MarshalJSON writes the faces as a JSON array of numbers.
func (f Faces) MarshalJSON() ([]byte, error) { return json.Marshal(f.Ints()) }

// UnmarshalJSON reads a JSON array of marks (numbers from 1 to 9).
func (f *Faces) UnmarshalJSON(b []byte) error {
	var dice []int
	if err := json.Unmarshal(b, &dice); err != nil {
		return fmt.Errorf("faces: %w", err)
	}
	v, err := FacesOf(dice...)
	if err != nil {
		return err
	}
	*f = v
	return nil
}

// RollFaces returns the n dice of roll r in turn t of seat s (all counted
// from 0), a function of (seed, s, t, r) alone: Throw with fair dice.
func (s *Seed) RollFaces(seat, turn, roll, n int) Faces {
	return s.Throw(&die, Mishap{}, seat, turn, roll, n)
}

// Throw returns the n pieces of roll r in turn t of seat s (all counted from
// 0), a function of (seed, s, t, r) alone. The derivation is in dice.md:
// SHA-256 over a label, the seed and the four counters gives a stream of
// bytes; each draw of a whole number below m reads one byte (m up to 256)
// or two, big-endian, skipping values at or above the largest multiple of
// m, so every value has exactly its share; a mishap is drawn first, then
// each piece's mark by its weights. For a die that is a byte under 252,
// mod 6. The first pieces of a throw do not depend on how many are thrown.
func (s *Seed) Throw(p *Piece, m Mishap, seat, turn, roll, n int) Faces {
	var f Faces
	st := newDrawStream(s, seat, turn, roll)
	if m.Weight > 0 && st.below(m.Of) < m.Weight {
		for range n {
			f.push(int(m.Mark))
		}
		return f
	}
	total := p.total()
	for f.Len() < n {
		f.push(p.mark(st.below(total)))
	}
	return f
}

// ThrowFor is Throw with game g's pieces: its roll, or n chosen pieces.
func (s *Seed) ThrowFor(g Game, seat, turn, roll, n int) Faces {
	r := g.Rules()
	return s.Throw(&r.Piece, r.Mishap, seat, turn, roll, n)
}

// mark returns the mark that the value x, below the weights' total, falls
// on: marks take consecutive runs of values as long as their weights.
func (p *Piece) mark(x int) int {
	for m, w := range p.Weights {
		if x < w {
			return m + 1
		}
		x -= w
	}
	panic("sim: a draw beyond the piece's weights")
}

// drawStream is the bytes of one roll's digests, read in order.
type drawStream struct {
	msg [len(diceLabel) + 32 + 16]byte
	sum [32]byte
	pos int
	blk uint32
}

func newDrawStream(s *Seed, seat, turn, roll int) drawStream {
	st := drawStream{pos: 32}
	copy(st.msg[:], diceLabel)
	copy(st.msg[len(diceLabel):], s[:])
	c := st.msg[len(diceLabel)+32:]
	binary.BigEndian.PutUint32(c[0:], uint32(seat))
	binary.BigEndian.PutUint32(c[4:], uint32(turn))
	binary.BigEndian.PutUint32(c[8:], uint32(roll))
	return st
}

// byte returns the next byte of the stream.
func (st *drawStream) byte() int {
	if st.pos == len(st.sum) {
		binary.BigEndian.PutUint32(st.msg[len(diceLabel)+32+12:], st.blk)
		st.sum = sha256.Sum256(st.msg[:])
		st.blk++
		st.pos = 0
	}
	b := st.sum[st.pos]
	st.pos++
	return int(b)
}

// below returns a whole number below m (at most 65536), each exactly
// equally likely: one byte for m up to 256, else two, big-endian; values
// from the largest multiple of m up are skipped.
func (st *drawStream) below(m int) int {
	span := 256
	if m > 256 {
		span = 1 << 16
	}
	limit := span - span%m
	for {
		x := st.byte()
		if span > 256 {
			x = x<<8 | st.byte()
		}
		if x < limit {
			return x % m
		}
	}
}

// Mystery returns which of n strengths (0 to n-1, n up to 256) the
// mystery bot at seat plays at: SHA-256 over a label, the seed, the seat
// and a block counter (each four bytes, big-endian), the first byte below
// the largest multiple of n taken modulo n, so that each is exactly as
// likely (dice.md).
func (s *Seed) Mystery(seat, n int) int {
	var msg [len(mysteryLabel) + 32 + 8]byte
	copy(msg[:], mysteryLabel)
	copy(msg[len(mysteryLabel):], s[:])
	binary.BigEndian.PutUint32(msg[len(mysteryLabel)+32:], uint32(seat))
	limit := 256 - 256%n
	for block := uint32(0); ; block++ {
		binary.BigEndian.PutUint32(msg[len(mysteryLabel)+36:], block)
		sum := sha256.Sum256(msg[:])
		for _, b := range sum {
			if int(b) < limit {
				return int(b) % n
			}
		}
	}
}

// FirstSeat returns the seat, from 0 to seats-1, that moves first in a match
// of that many seats: SHA-256 over a label, the seed and a block counter, the
// first byte below the largest multiple of seats taken modulo seats.
func (s *Seed) FirstSeat(seats int) int {
	var msg [len(firstLabel) + 32 + 4]byte
	copy(msg[:], firstLabel)
	copy(msg[len(firstLabel):], s[:])
	limit := 256 - 256%seats
	for block := uint32(0); ; block++ {
		binary.BigEndian.PutUint32(msg[len(firstLabel)+32:], block)
		sum := sha256.Sum256(msg[:])
		for _, b := range sum {
			if int(b) < limit {
				return int(b) % seats
			}
		}
	}
}
