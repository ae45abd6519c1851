package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"pigclass/server/store"
)

// stateDir is where the unit keeps the database and its key: systemd makes
// it (StateDirectory) and gives it to the service's user alone.
const stateDir = "/var/lib/pigclass"

// runService prints a systemd unit that serves pigclass with the serve
// flags given (the guide, doc.go, "Installing it as a service").
func runService(e env, args []string) error {
	binary, user, serveArgs, err := serviceFlags(args)
	if err != nil {
		return err
	}
	for _, a := range serveArgs {
		if isHelp(a) {
			fmt.Fprintln(e.stderr, "pigclass service [--binary PATH] [--user NAME] [serve's flags] prints a systemd unit that runs\n\"pigclass serve\" with serve's flags; the database and its key live in "+stateDir+".\n--binary is the installed binary (default: this one), --user a system user of your own\n(default: a user systemd makes for the service). Serve's flags:")
		}
	}
	// Every value is written into the unit: a line break would start a
	// directive of its own (ExecStartPre=, User=), and systemd reads no
	// other control character as text either.
	for _, a := range append([]string{binary, user}, serveArgs...) {
		if i := strings.IndexFunc(a, unicode.IsControl); i >= 0 {
			return usagef("service: %q holds a control character (%U): the unit is written line by line, so every value must be plain text on one line", a, []rune(a[i:])[0])
		}
	}
	if !hasFlag(serveArgs, "db") {
		serveArgs = append(serveArgs, "--db", stateDir+"/pigclass.db")
	}
	// The flags are serve's own, checked as serve checks them (without
	// the environment's defaults: the unit says everything).
	noEnv := e
	noEnv.getenv = func(string) string { return "" }
	cfg, err := parseServe(noEnv, "service", serveArgs)
	if err != nil {
		return err
	}
	if !filepath.IsAbs(binary) {
		return usagef("service: --binary %q: the installed binary's absolute path, such as /usr/local/bin/pigclass", binary)
	}
	if store.IsPostgres(cfg.db) {
		return usagef("service: --db: the unit writes a SQLite file's service; for a district's Postgres, write the unit without --db and add the database's address to it as Environment=PIGCLASS_DB=postgres://... (in an EnvironmentFile readable by root alone if it holds a password), with --key")
	}
	if !strings.HasPrefix(filepath.Clean(cfg.db), stateDir+"/") {
		return usagef("service: --db %q: the unit keeps its data in %s (a read-only system outside it); leave --db out, or name a file there", cfg.db, stateDir)
	}
	fmt.Fprint(e.stdout, unit(binary, user, serveArgs, lowPort(cfg.addr)))
	return nil
}

// serviceFlags takes service's own flags (--binary, --user) out of args
// and leaves serve's.
func serviceFlags(args []string) (binary, user string, rest []string, err error) {
	if binary, err = os.Executable(); err != nil {
		binary = "/usr/local/bin/pigclass"
	}
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || name != "binary" && name != "user" {
			rest = append(rest, args[i])
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return "", "", nil, usagef("service: --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if name == "binary" {
			binary = value
		} else {
			user = value
		}
	}
	if user != "" && strings.ContainsFunc(user, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) {
		return "", "", nil, usagef("service: --user %q: a system user's name, such as pigclass", user)
	}
	if user == "root" {
		// The unit's hardening keeps a server that is broken into from the
		// rest of the machine; as root it would own the machine, and the
		// server needs no privilege (a low port gets its one capability).
		return "", "", nil, usagef("service: --user root: pigclass needs no privilege and must not run as root; leave --user out (systemd then makes a user for it) or name a system user of its own, such as pigclass")
	}
	return binary, user, rest, nil
}

// hasFlag reports whether args set the flag name.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && n == name {
			return true
		}
	}
	return false
}

// lowPort reports whether addr's port is below 1024 (it needs the
// capability to bind one).
func lowPort(addr string) bool {
	_, port, err := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(port)
	return err == nil && n > 0 && n < 1024
}

// unit writes the systemd unit: its own user, the state directory, the
// hardening the server tolerates (it writes only its state directory, runs
// no other program and needs no privilege).
func unit(binary, user string, serveArgs []string, lowPort bool) string {
	var b strings.Builder
	w := func(lines ...string) {
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	w("# pigclass as a systemd service: written by `pigclass service`.",
		"# Install: go doc pigclass/cmd/pigclass, \"Installing it as a service\".",
		"[Unit]",
		"Description=pigclass, a classroom probability lab",
		"After=network-online.target",
		"Wants=network-online.target",
		"",
		"[Service]",
		"Type=simple",
		"ExecStart="+execLine(append([]string{binary, "serve"}, serveArgs...)))
	if user == "" {
		w("DynamicUser=yes")
	} else {
		w("User="+user, "Group="+user)
	}
	w("StateDirectory=pigclass",
		"StateDirectoryMode=0700",
		"WorkingDirectory="+stateDir,
		"Restart=on-failure",
		"RestartSec=2s",
		"UMask=0077",
		"NoNewPrivileges=yes",
		"ProtectSystem=strict",
		"ProtectHome=yes",
		"PrivateTmp=yes",
		"PrivateDevices=yes",
		"ProtectKernelTunables=yes",
		"ProtectKernelModules=yes",
		"ProtectKernelLogs=yes",
		"ProtectControlGroups=yes",
		"ProtectClock=yes",
		"ProtectHostname=yes",
		"RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
		"RestrictNamespaces=yes",
		"RestrictRealtime=yes",
		"RestrictSUIDSGID=yes",
		"LockPersonality=yes",
		"MemoryDenyWriteExecute=yes",
		"SystemCallArchitectures=native")
	if lowPort {
		w("AmbientCapabilities=CAP_NET_BIND_SERVICE", "CapabilityBoundingSet=CAP_NET_BIND_SERVICE")
	} else {
		w("CapabilityBoundingSet=")
	}
	w("", "[Install]", "WantedBy=multi-user.target")
	return b.String()
}

// execLine quotes a command line as systemd reads ExecStart: each word in
// double quotes where it needs them, a percent sign doubled (a specifier
// otherwise), a dollar sign doubled (a variable otherwise).
func execLine(words []string) string {
	out := make([]string, len(words))
	for i, s := range words {
		s = strings.NewReplacer("%", "%%", "$", "$$", `\`, `\\`, `"`, `\"`).Replace(s)
		if s == "" || strings.ContainsAny(s, " \t'\";") {
			s = `"` + s + `"`
		}
		out[i] = s
	}
	return strings.Join(out, " ")
}
