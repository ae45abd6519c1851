package main

import (
	"path/filepath"
	"strings"
	"testing"

	"pigclass/server"
	"pigclass/server/store"
)

// TestLTICommand: pigclass lti prints the registration address (its key
// the server's) and the tool's addresses; lti add registers a platform
// by hand, and refuses one with an address missing; lti rotate makes a
// new signing key, the one before it still published.
func TestLTICommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "school.db")
	_, _, err := runCmd(t, "lti", "add", "--db", db, "--public-url", "https://pigclass.school.example", "--issuer", "https://lms.example.org",
		"--client-id", "c-1", "--deployment", "d-1, d-2", "--login-url", "https://lms.example.org/auth", "--token-url", "https://lms.example.org/token")
	if err == nil || !strings.Contains(err.Error(), "--keys-url") {
		t.Fatalf("lti add without --keys-url: %v", err)
	}
	out, _, err := runCmd(t, "lti", "add", "--db", db, "--public-url", "https://pigclass.school.example", "--issuer", "https://lms.example.org",
		"--client-id", "c-1", "--deployment", "d-1, d-2", "--login-url", "https://lms.example.org/auth", "--token-url", "https://lms.example.org/token",
		"--keys-url", "https://lms.example.org/jwks")
	if err != nil {
		t.Fatal(err)
	}
	key, err := store.LoadKey(db + ".key")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"registered https://lms.example.org (client id c-1, deployments d-1, d-2)",
		"https://pigclass.school.example/lti/register/" + server.LTIRegisterKey(key.Bytes),
		"https://pigclass.school.example/lti/login", "https://pigclass.school.example/lti/launch", "https://pigclass.school.example/lti/jwks",
		"platforms registered: 1", "https://lms.example.org, client id c-1, deployments d-1, d-2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pigclass lti add printed no %q:\n%s", want, out)
		}
	}
	for range 3 {
		if _, _, err := runCmd(t, "lti", "rotate", "--db", db); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, err := st.ToolKeys(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	published := 0
	for _, k := range keys {
		if !k.Retired {
			published++
		}
	}
	if len(keys) != 3 || published != 2 {
		t.Errorf("after three rotations: %d keys, %d published; want 3 and 2", len(keys), published)
	}
}
