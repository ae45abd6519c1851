package main

import (
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// The teacher's browser, opened at the front page by a classroom start:
// the system's own opener (xdg-open, open, the Windows shell), a program
// named by PIGCLASS_BROWSER instead, or none with --no-browser or
// PIGCLASS_NO_BROWSER=1, or where there is no desktop to open it on (a
// Linux server's console, an SSH session).

// browserCommand is the command that opens url in the teacher's browser,
// nil when none is to be opened.
func browserCommand(getenv func(string) string, goos, url string) []string {
	if v := strings.TrimSpace(getenv("PIGCLASS_NO_BROWSER")); v != "" && v != "0" && !strings.EqualFold(v, "false") {
		return nil
	}
	if b := strings.TrimSpace(getenv("PIGCLASS_BROWSER")); b != "" {
		return []string{b, url}
	}
	if getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != "" {
		return nil // the desktop, if any, is another person's
	}
	switch goos {
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", url}
	case "darwin":
		return []string{"open", url}
	case "android", "ios", "plan9", "js", "wasip1":
		return nil
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return nil // a server's console: no desktop to open a browser on
	}
	return []string{"xdg-open", url}
}

// openBrowser opens url in the teacher's browser, if there is one to open;
// it reports whether it tried. The opener runs on its own, but a start
// that is about to end (a second start) waits up to wait for it, so that
// the opener is not cut off with the program that started it.
func openBrowser(getenv func(string) string, url string, wait time.Duration) bool {
	argv := browserCommand(getenv, runtime.GOOS, url)
	if argv == nil {
		return false
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return false
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(wait):
	}
	return true
}
