package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// flagsOf is the flags a command's --help lists, in order.
func flagsOf(t *testing.T, cmd string) []string {
	t.Helper()
	stdout, stderr, _ := runCmd(t, cmd, "--help")
	help := stdout + stderr
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z-]*)`).FindAllStringSubmatch(help, -1) {
		out = append(out, m[1])
	}
	return out
}

// synopsisOf is the README's synopsis: its block of lines from
// "pigclass [serve]" on.
func synopsisOf(readme string) []string {
	var out []string
	for _, l := range strings.Split(readme, "\n") {
		if strings.HasPrefix(l, "    pigclass [serve] ") || len(out) > 0 && strings.HasPrefix(l, "    pigclass ") {
			out = append(out, l)
		} else if len(out) > 0 {
			break
		}
	}
	return out
}

// TestREADMESynopsisIsTheCommands: each command's line in the README's
// synopsis names exactly the flags its --help lists (a flag added to a
// command and not to the README fails here), and every environment
// variable serve reads is named where the README says every flag has
// one.
func TestREADMESynopsisIsTheCommands(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	synopsis := synopsisOf(readme)
	flag := regexp.MustCompile(`--([a-z][a-z-]*)`)
	for _, cmd := range []string{"serve", "version", "backup", "migrate", "loadtest", "proxyconf", "simulate", "solve", "advise", "duel", "verify", "export"} {
		prefix := "    pigclass " + cmd + " "
		if cmd == "serve" {
			prefix = "    pigclass [serve] "
		}
		var line string
		for _, l := range synopsis {
			if strings.HasPrefix(l+" ", prefix) && line == "" {
				line = l
			}
		}
		if line == "" {
			t.Errorf("the README's synopsis has no line for pigclass %s", cmd)
			continue
		}
		var said []string
		for _, m := range flag.FindAllStringSubmatch(line, -1) {
			if !slices.Contains(said, m[1]) {
				said = append(said, m[1])
			}
		}
		want := flagsOf(t, cmd)
		slices.Sort(said)
		slices.Sort(want)
		if !slices.Equal(said, want) {
			t.Errorf("pigclass %s: the README's synopsis names %v, its --help %v", cmd, said, want)
		}
	}
	stdout, stderr, _ := runCmd(t, "serve", "--help")
	for _, env := range regexp.MustCompile(`env (PIGCLASS_[A-Z_]+)`).FindAllStringSubmatch(stdout+stderr, -1) {
		if !strings.Contains(readme, "`"+env[1]+"`") {
			t.Errorf("serve reads %s, which the README does not name", env[1])
		}
	}
}
