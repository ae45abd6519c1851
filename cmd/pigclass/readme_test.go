package main

import (
	"regexp"
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

// TestGuideNamesEveryVariable: every environment variable serve reads
// is named in the administrator's guide's "Running it for a classroom",
// where it says every flag has one.
func TestGuideNamesEveryVariable(t *testing.T) {
	guide := guideText(t)
	section := guideSection(t, guide, "Running it for a classroom")
	stdout, stderr, _ := runCmd(t, "serve", "--help")
	vars := regexp.MustCompile(`env (PIGCLASS_[A-Z_]+)`).FindAllStringSubmatch(stdout+stderr, -1)
	if len(vars) < 10 {
		t.Fatalf("serve --help names %d variables", len(vars))
	}
	for _, env := range vars {
		if !strings.Contains(section, "`"+env[1]+"`") {
			t.Errorf("serve reads %s, which the guide's \"Running it for a classroom\" does not name", env[1])
		}
	}
}
