package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// service runs `pigclass service` with args and returns the unit.
func service(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errs bytes.Buffer
	err := run(context.Background(), append([]string{"service"}, args...), func(string) string { return "" }, &out, &errs)
	return out.String(), err
}

// TestServiceUnitVerifies: `pigclass service` writes a unit for the binary
// the test built, with serve's flags, its own user, the state directory
// and the hardening, and systemd-analyze verify finds nothing wrong with
// it, not even a warning (CI installs Debian's systemd; elsewhere the
// check is skipped without it).
func TestServiceUnitVerifies(t *testing.T) {
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--addr", ":8080", "--public-url", "http://10.0.0.5:8080", "--log-format", "json"},
			[]string{"ExecStart=" + bin + " serve --addr :8080 --public-url http://10.0.0.5:8080 --log-format json --db /var/lib/pigclass/pigclass.db\n", "DynamicUser=yes\n", "StateDirectory=pigclass\n", "NoNewPrivileges=yes\n", "ProtectSystem=strict\n", "PrivateTmp=yes\n", "CapabilityBoundingSet=\n"}},
		{[]string{"--user", "pigclass", "--addr", ":80", "--code-prefix", "k7"},
			[]string{"User=pigclass\n", "AmbientCapabilities=CAP_NET_BIND_SERVICE\n", "--code-prefix k7 --db"}},
	} {
		u, err := service(t, append([]string{"--binary", bin}, tc.args...)...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(u, w) {
				t.Errorf("%v: the unit lacks %q:\n%s", tc.args, w, u)
			}
		}
		analyze, err := exec.LookPath("systemd-analyze")
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("CI has no systemd-analyze: .ci/run installs Debian's systemd")
			}
			t.Skip("no systemd-analyze here")
		}
		path := filepath.Join(t.TempDir(), "pigclass.service")
		if err := os.WriteFile(path, []byte(u), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(analyze, "verify", "--man=no", path).CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) != 0 {
			t.Errorf("systemd-analyze verify: %v\n%s\n%s", err, out, u)
		}
	}
}

// TestServiceRefusesWhatCannotRun: a relative binary, a database outside
// the state directory (a read-only system there) and a bad serve flag are
// refused with what to fix.
func TestServiceRefusesWhatCannotRun(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--binary", "pigclass"}, "absolute path"},
		{[]string{"--db", "/srv/pigclass.db"}, "leave --db out"},
		{[]string{"--moves-per-second", "0"}, "at least 1"},
		{[]string{"--user", "root;rm"}, "a system user's name"},
		{[]string{"--log-level", "loud"}, "info or debug"},
	} {
		if _, err := service(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestServiceRefusesSmuggledDirectives (issue 41, item 5): a value with a
// line break (or any control character) would add a directive of its own
// to the unit; each flag, service's and serve's, fed one is refused with
// what to fix and no unit is printed; --user root is refused, saying why.
func TestServiceRefusesSmuggledDirectives(t *testing.T) {
	const smuggled = "x\nExecStartPre=/bin/sh -c id"
	for _, flag := range []string{"binary", "user", "addr", "db", "public-url", "trusted-proxy", "code-prefix", "metrics-host",
		"metrics-addr", "log-format", "log-level", "moves-per-second", "retain-days"} {
		for _, value := range []string{smuggled, "/usr/local/bin/pigclass\r", "a\x00b", "a\tb\x1b"} {
			u, err := service(t, "--"+flag, value)
			if err == nil || u != "" || strings.Contains(u, "ExecStartPre") {
				t.Errorf("--%s %q: %v, printed %q", flag, value, err, u)
				continue
			}
			if flag != "user" && !strings.Contains(err.Error(), "control character") {
				t.Errorf("--%s %q: %v, want it to name the control character", flag, value, err)
			}
		}
	}
	if _, err := service(t, "--user", "root"); err == nil || !strings.Contains(err.Error(), "must not run as root") {
		t.Errorf("--user root: %v", err)
	}
}
