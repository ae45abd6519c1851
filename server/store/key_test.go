package store

import (
	"bytes"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// publishedKey is the key pigclass's repository held in pigclass.db.key
// from d91ef70 on: anyone with a clone has it, so it is no secret, and a
// server that finds it makes a new one.
const publishedKey = "583ccdfe4cbb406ead022dd9ff596511101983835ac5ad6ed64430aad376ee2a"

func TestAKeyIsMadeForItsOwnerAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pigclass.db.key")
	k, err := LoadKey(path)
	if err != nil || len(k.Bytes) != KeySize || k.Renewed {
		t.Fatalf("a new key: %d bytes, renewed %v, %v", len(k.Bytes), k.Renewed, err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the new key file's mode: %v, %v", info.Mode(), err)
	}
	again, err := LoadKey(path)
	if err != nil || !bytes.Equal(again.Bytes, k.Bytes) {
		t.Fatalf("the key read again differs: %v", err)
	}
}

func TestAKeyOthersMayReadIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pigclass.db.key")
	if err := os.WriteFile(path, bytes.Repeat([]byte{7}, KeySize), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o644) // whatever the umask
	_, err := LoadKey(path)
	if err == nil || !strings.Contains(err.Error(), "may be read by others (mode 0644)") || !strings.Contains(err.Error(), "chmod 600 "+path) {
		t.Fatalf("a key file of mode 0644: %v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, bytes.Repeat([]byte{7}, KeySize)) {
		t.Fatal("the refused key file was changed")
	}
	os.Chmod(path, 0o600)
	if _, err := LoadKey(path); err != nil {
		t.Fatalf("mended: %v", err)
	}
}

func TestAKeyGitTracksIsRefused(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git here")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "pigclass.db.key")
	if err := os.WriteFile(path, bytes.Repeat([]byte{9}, KeySize), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-f", "pigclass.db.key"}} {
		if out, err := exec.Command(git, append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	_, err = LoadKey(path)
	if err == nil || !strings.Contains(err.Error(), "is tracked by git") || !strings.Contains(err.Error(), "git rm --cached pigclass.db.key") {
		t.Fatalf("a key file git tracks: %v", err)
	}
	if out, err := exec.Command(git, "-C", dir, "rm", "-q", "--cached", "pigclass.db.key").CombinedOutput(); err != nil {
		t.Fatalf("git rm: %v\n%s", err, out)
	}
	if _, err := LoadKey(path); err != nil {
		t.Fatalf("untracked: %v", err)
	}
}

// TestThePublishedKeyIsReplaced: a key file that holds the key once
// committed to the repository (as a checkout left it, mode 0644) is
// replaced by a new key, readable by its owner alone, and the caller is
// told.
func TestThePublishedKeyIsReplaced(t *testing.T) {
	published, err := hex.DecodeString(publishedKey)
	if err != nil || KeyFingerprint(published) != PublishedKeys[0] {
		t.Fatalf("the published key's fingerprint is not PublishedKeys' first: %v", err)
	}
	path := filepath.Join(t.TempDir(), "pigclass.db.key")
	if err := os.WriteFile(path, published, 0o644); err != nil {
		t.Fatal(err)
	}
	k, err := LoadKey(path)
	if err != nil || !k.Renewed || bytes.Equal(k.Bytes, published) || len(k.Bytes) != KeySize {
		t.Fatalf("the published key: renewed %v, new %x, %v", k.Renewed, k.Bytes, err)
	}
	info, _ := os.Stat(path)
	b, _ := os.ReadFile(path)
	if info.Mode().Perm() != 0o600 || !bytes.Equal(b, k.Bytes) {
		t.Fatalf("the new key file: mode %v, holds the new key %v", info.Mode(), bytes.Equal(b, k.Bytes))
	}
	if again, err := LoadKey(path); err != nil || again.Renewed || !bytes.Equal(again.Bytes, k.Bytes) {
		t.Fatalf("the new key read again: renewed %v, %v", again.Renewed, err)
	}
}
