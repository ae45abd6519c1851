package sim

import (
	"crypto/rand"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"sync"
)

// Chance is where a server's draws come from: every match's seed, the
// order students are paired in, join codes and generated names. The
// server is given one (Crypto in production, a Stream in tests), so a
// test chooses the dice it plays with.
type Chance interface {
	// Seed draws a match's seed.
	Seed() Seed
	// Below draws a whole number from 0 to n-1, each equally likely; n
	// must be at least 1.
	Below(n int) int
}

// Crypto is the production Chance: crypto/rand, as NewSeed.
var Crypto Chance = cryptoChance{}

type cryptoChance struct{}

func (cryptoChance) Seed() Seed { return NewSeed() }

func (cryptoChance) Below(n int) int {
	x, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		panic(fmt.Sprintf("sim: draw below %d: %v", n, err))
	}
	return int(x.Int64())
}

// Stream is a deterministic Chance for tests and replays: the same
// number gives the same draws in the same order. Seeds dealt to it
// (Deal) come out first, in order, before the stream's own. It is safe
// for concurrent use.
type Stream struct {
	mu    sync.Mutex
	rng   *mrand.Rand
	dealt []Seed
}

// NewStream returns the stream numbered n.
func NewStream(n uint64) *Stream {
	return &Stream{rng: mrand.New(mrand.NewPCG(n, 0x706967636c617373))} // "pigclass"
}

// Deal puts seeds to be drawn next, in order, before the stream's own:
// a test that needs a match's dice to fall a certain way deals the seed
// that makes them fall so (see FindSeed).
func (s *Stream) Deal(seeds ...Seed) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dealt = append(s.dealt, seeds...)
}

// Dealt returns how many dealt seeds have not been drawn yet.
func (s *Stream) Dealt() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.dealt)
}

// Seed draws the next dealt seed, or else the stream's next.
func (s *Stream) Seed() Seed {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.dealt) > 0 {
		seed := s.dealt[0]
		s.dealt = s.dealt[1:]
		return seed
	}
	return s.nextSeed()
}

func (s *Stream) nextSeed() Seed {
	var seed Seed
	for i := 0; i < len(seed); i += 8 {
		x := s.rng.Uint64()
		for j := range 8 {
			seed[i+j] = byte(x >> (8 * j))
		}
	}
	return seed
}

// Below draws from the stream (dealt seeds are not used).
func (s *Stream) Below(n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rng.IntN(n)
}

// FindSeed returns the first seed of the stream numbered n for which ok
// holds, trying at most tries seeds, and how many it tried; an error if
// none did. A test states what it needs of the dice as ok, reading them
// as a match would (Seed.ThrowFor, Seed.FirstSeat, Seed.Mystery), and
// plays exactly its moves on the seed found.
func FindSeed(n uint64, tries int, ok func(*Seed) bool) (Seed, int, error) {
	s := NewStream(n)
	for i := 1; i <= tries; i++ {
		seed := s.nextSeed()
		if ok(&seed) {
			return seed, i, nil
		}
	}
	return Seed{}, tries, fmt.Errorf("sim: none of the first %d seeds of stream %d has what was asked", tries, n)
}

// Shuffle puts xs in a random order drawn from ch (Fisher-Yates, from
// the last place down): the order students are paired in, and the
// labels a randomization test reshuffles.
func Shuffle[T any](ch Chance, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := ch.Below(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}
