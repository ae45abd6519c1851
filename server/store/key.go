package store

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// KeySize is the length of the server's key.
const KeySize = 32

// LoadKey returns the server's own key, kept beside the database in the
// file path (created the first time, 32 random bytes, readable by its
// owner alone): what is derived with it (the projector key, the students'
// rejoin codes) cannot be computed from a copy of the database.
func LoadKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil && len(b) == KeySize:
		return b, nil
	case err == nil:
		return nil, fmt.Errorf("store: the key file %s holds %d bytes, not %d: move it away to make a new one (projector links and rejoin codes then change)", path, len(b), KeySize)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("store: the key file: %w", err)
	}
	key := make([]byte, KeySize)
	rand.Read(key)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: the key file: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: the key file %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: the key file %s: %w", path, err)
	}
	return key, f.Close()
}
