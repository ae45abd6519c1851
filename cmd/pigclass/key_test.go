package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pigclass/server/store"
	"pigclass/server/store/pgtest"
)

// lockedBuffer is a log's output read while the server writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeRenewsThePublishedKey (issue 58, item 1): a server started on
// the key file a checkout of pigclass once held (the key published in
// its repository, mode 0644) makes a new key, says what changes, and
// serves; a key file others may read is refused, naming the fix.
func TestServeRenewsThePublishedKey(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "pigclass.db")
	published, _ := hex.DecodeString("583ccdfe4cbb406ead022dd9ff596511101983835ac5ad6ed64430aad376ee2a")
	if err := os.WriteFile(db+".key", published, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(db+".key", 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logged lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, serveConfig{db: db}, ln, slog.New(slog.NewTextHandler(&logged, nil))) }()
	waitHealthy(t, "http://"+ln.Addr().String(), 30*time.Second)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(db + ".key")
	info, _ := os.Stat(db + ".key")
	if err != nil || bytes.Equal(key, published) || len(key) != store.KeySize || info.Mode().Perm() != 0o600 {
		t.Fatalf("the key file after the start: %d bytes, the published key %v, mode %v, %v", len(key), bytes.Equal(key, published), info.Mode(), err)
	}
	if out := logged.String(); !strings.Contains(out, "a new key was made") || !strings.Contains(out, "Projector links and rejoin codes change") || !strings.Contains(out, store.KeyFingerprint(key)) {
		t.Errorf("the log does not say the key was renewed and what changes:\n%s", out)
	}

	// A key file others may read: refused, nothing served.
	os.Chmod(db+".key", 0o640)
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	err = serve(context.Background(), serveConfig{db: db}, ln, slog.New(slog.NewTextHandler(&logged, nil)))
	if err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a key file of mode 0640: %v", err)
	}
}

// TestAnInstanceWithAnotherKeyIsRefused (issue 58, item 5): an instance
// of a district started with a key file other than the district's refuses
// to start, naming both fingerprints; before, it served, and the classes
// it took over answered their projector links 404.
func TestAnInstanceWithAnotherKeyIsRefused(t *testing.T) {
	db := pgtest.URL(t)
	dir := t.TempDir()
	var logged lockedBuffer
	log := slog.New(slog.NewTextHandler(&logged, nil))
	first := filepath.Join(dir, "district.key")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, serveConfig{db: db, key: first}, ln, log) }()
	waitHealthy(t, "http://"+ln.Addr().String(), 30*time.Second)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.key")
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	err = serve(context.Background(), serveConfig{db: db, key: other}, ln, log)
	k1, _ := os.ReadFile(first)
	k2, _ := os.ReadFile(other)
	if err == nil || !strings.Contains(err.Error(), store.KeyFingerprint(k1)) || !strings.Contains(err.Error(), store.KeyFingerprint(k2)) {
		t.Fatalf("an instance with another key: %v", err)
	}
}
