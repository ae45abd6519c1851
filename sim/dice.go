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
	diceLabel  = "pigclass-dice-v1\x00"
	firstLabel = "pigclass-first-v1\x00"
)

// Faces is the dice of one roll, at most MaxDiceLimit of them, kept in a
// fixed array so that rolling does not allocate.
type Faces struct {
	n uint8
	d [MaxDiceLimit]uint8
}

// Len returns the number of dice.
func (f *Faces) Len() int { return int(f.n) }

// At returns die i, from 1 to 6.
func (f *Faces) At(i int) int { return int(f.d[i]) }

// Ints returns the faces as a new slice.
func (f Faces) Ints() []int {
	out := make([]int, f.n)
	for i := range out {
		out[i] = int(f.d[i])
	}
	return out
}

// FacesOf builds Faces from a slice of dice; values must be 1 to 6.
func FacesOf(dice ...int) (Faces, error) {
	var f Faces
	if len(dice) > MaxDiceLimit {
		return f, fmt.Errorf("faces: %d dice, at most %d", len(dice), MaxDiceLimit)
	}
	for i, d := range dice {
		if d < 1 || d > 6 {
			return f, fmt.Errorf("faces: die %d shows %d, must be 1 to 6", i+1, d)
		}
		f.d[i] = uint8(d)
	}
	f.n = uint8(len(dice))
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

// UnmarshalJSON reads a JSON array of numbers from 1 to 6.
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
// from 0), a function of (seed, s, t, r) alone. The derivation is in dice.md:
// SHA-256 over a label, the seed and the four counters, one byte per die,
// bytes of 252 and above skipped so that every face has probability exactly
// 1/6. The first dice of a roll do not depend on how many are thrown.
func (s *Seed) RollFaces(seat, turn, roll, n int) Faces {
	var f Faces
	var msg [len(diceLabel) + 32 + 16]byte
	copy(msg[:], diceLabel)
	copy(msg[len(diceLabel):], s[:])
	c := msg[len(diceLabel)+32:]
	binary.BigEndian.PutUint32(c[0:], uint32(seat))
	binary.BigEndian.PutUint32(c[4:], uint32(turn))
	binary.BigEndian.PutUint32(c[8:], uint32(roll))
	for block := uint32(0); f.Len() < n; block++ {
		binary.BigEndian.PutUint32(c[12:], block)
		sum := sha256.Sum256(msg[:])
		for _, b := range sum {
			if b < 252 {
				f.push(int(b%6) + 1)
				if f.Len() == n {
					break
				}
			}
		}
	}
	return f
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
