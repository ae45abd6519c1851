package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// KeySize is the length of the server's key.
const KeySize = 32

// PublishedKeys are the fingerprints (SHA-256, hex) of keys that were
// once committed to pigclass's repository, and so are known to anyone: a
// server that finds one in its key file makes a new key.
var PublishedKeys = []string{
	"9aaeb9ed8e93715787a724328de2eebdd15ff2c6729795ae9157972f3d4a3943", // pigclass.db.key, tracked from d91ef70 until it was removed
}

// KeyFingerprint is the SHA-256 of a key, as hex: what may be said of a
// key without telling it.
func KeyFingerprint(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:])
}

// Key is the server's own key, as LoadKey found it.
type Key struct {
	Bytes []byte
	// Renewed: the file held a published key (PublishedKeys), replaced
	// now by a new one: projector links, rejoin codes and the signature
	// key on /verify change.
	Renewed bool
}

// LoadKey returns the server's own key, kept beside the database in the
// file path (created the first time, 32 random bytes, readable by its
// owner alone): what is derived with it (the projector key, the students'
// rejoin codes, the records' signatures) cannot be computed from a copy
// of the database. It refuses a key file that others may read or that git
// tracks, saying how to mend it, and replaces a published key.
func LoadKey(path string) (Key, error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil && len(b) != KeySize:
		return Key{}, fmt.Errorf("store: the key file %s holds %d bytes, not %d: move it away to make a new one (projector links and rejoin codes then change)", path, len(b), KeySize)
	case err == nil && isPublished(b):
		key, err := newKey(path, true)
		return Key{Bytes: key, Renewed: true}, err
	case err == nil:
		if err := checkKeyFile(path); err != nil {
			return Key{}, err
		}
		return Key{Bytes: b}, nil
	case !errors.Is(err, fs.ErrNotExist):
		return Key{}, fmt.Errorf("store: the key file: %w", err)
	}
	key, err := newKey(path, false)
	return Key{Bytes: key}, err
}

func isPublished(key []byte) bool {
	fp := KeyFingerprint(key)
	for _, p := range PublishedKeys {
		if p == fp {
			return true
		}
	}
	return false
}

// checkKeyFile refuses a key file that others may read, or that git
// tracks (it would be pushed wherever the repository goes).
func checkKeyFile(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("store: the key file: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("store: the key file %s may be read by others (mode %04o): make it its owner's alone with: chmod 600 %s", path, perm, path)
	}
	if tracked(path) {
		return fmt.Errorf("store: the key file %s is tracked by git, so it goes wherever the repository goes: untrack it (git rm --cached %s), ignore it (*.key in .gitignore), and move it away to make a new key, since its copies are out (projector links and rejoin codes then change)", path, filepath.Base(path))
	}
	return nil
}

// tracked reports whether git tracks the file at path (false where git
// is not installed or the file is in no repository).
func tracked(path string) bool {
	git, err := exec.LookPath("git")
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, "-C", filepath.Dir(path), "ls-files", "--error-unmatch", "--", filepath.Base(path))
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	return cmd.Run() == nil
}

// newKey draws a key and writes it to path, readable by its owner alone:
// a new file, or (replace) one that held a published key, replaced whole
// through a file beside it.
func newKey(path string, replace bool) ([]byte, error) {
	key := make([]byte, KeySize)
	rand.Read(key)
	target := path
	if replace {
		target = path + ".new"
		os.Remove(target)
	}
	f, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: the key file: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: the key file %s: %w", target, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: the key file %s: %w", target, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("store: the key file %s: %w", target, err)
	}
	if replace {
		if err := os.Rename(target, path); err != nil {
			return nil, fmt.Errorf("store: replace the published key in %s: %w", path, err)
		}
	}
	return key, nil
}
