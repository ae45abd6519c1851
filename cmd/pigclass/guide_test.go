package main

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// guideFile is the administrator's guide: doc.go's package comment, which
// go doc prints.
const guideFile = "doc.go"

// guideText is the guide as go doc reads it: the comment's lines without
// their "// " (a code block's lines keep their tab).
func guideText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(guideFile)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "//") {
			break
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
	}
	return strings.Join(lines, "\n")
}

// guideSection is the text of the guide's section under heading, up to
// the next heading.
func guideSection(t *testing.T, guide, heading string) string {
	t.Helper()
	start := strings.Index(guide, "\n# "+heading+"\n")
	if start < 0 {
		t.Fatalf("the guide has no section %q", heading)
	}
	body := guide[start+len(heading)+4:]
	if end := strings.Index(body, "\n# "); end >= 0 {
		body = body[:end]
	}
	return body
}

// commandsSection is what the guide's "Every command and flag" says:
// pigclass help, then each command's --help, as the commands print them.
func commandsSection(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	block := func(said, out string) {
		b.WriteString("\n`" + said + "` prints:\n\n")
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if l = strings.TrimRight(strings.ReplaceAll(l, "\t", "    "), " "); l != "" {
				l = "\t" + l
			}
			b.WriteString(l + "\n")
		}
	}
	out, _, err := runCmd(t, "help")
	if err != nil {
		t.Fatal(err)
	}
	block("pigclass help", out)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		stdout, stderr, _ := runCmd(t, n, "--help")
		block("pigclass "+n+" --help", stdout+stderr)
	}
	return b.String()
}

// TestGuideIsTheCommands (issue 63, item 3): the administrator's guide
// lists every command and every flag as the program's own --help says
// them, and no flag it does not have: a flag added, changed or removed
// fails here until the guide says so. PIGCLASS_WRITE_GUIDE=1 writes the
// section anew from the flag sets (then read the diff).
func TestGuideIsTheCommands(t *testing.T) {
	want := commandsSection(t)
	guide := guideText(t)
	got := guideSection(t, guide, "Every command and flag")
	if got == want+"\n" || got == want {
		return
	}
	if os.Getenv("PIGCLASS_WRITE_GUIDE") == "" {
		t.Fatalf("the guide's \"Every command and flag\" is not what the commands print: PIGCLASS_WRITE_GUIDE=1 go test ./cmd/pigclass -run TestGuideIsTheCommands writes it; the commands print:\n%s", want)
	}
	b, err := os.ReadFile(guideFile)
	if err != nil {
		t.Fatal(err)
	}
	comment := func(text string) string {
		var out []string
		for _, l := range strings.Split(text, "\n") {
			switch {
			case l == "":
				out = append(out, "//")
			case strings.HasPrefix(l, "\t"):
				out = append(out, "//"+l)
			default:
				out = append(out, "// "+l)
			}
		}
		return strings.Join(out, "\n")
	}
	old, fresh := comment("# Every command and flag\n"+got), comment("# Every command and flag\n"+want)
	if !strings.Contains(string(b), old) {
		t.Fatal("the guide's section could not be found to write it")
	}
	if err := os.WriteFile(guideFile, []byte(strings.Replace(string(b), old, fresh, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Log("wrote the guide's commands: read the diff")
}

// TestGuideNamesEveryFlagOnce: every flag a command's --help lists is in
// the administrator's guide, and every flag the guide's prose names
// (--flag) is a flag of some command: the guide names no flag the program
// does not have.
func TestGuideNamesEveryFlagOnce(t *testing.T) {
	guide := guideText(t)
	all := map[string]bool{"help": true}
	for n := range commands {
		// A command's --help names its flags in its list, and service's
		// own (--binary, --user) in its words.
		stdout, stderr, _ := runCmd(t, n, "--help")
		for _, m := range regexp.MustCompile(`--([a-z][a-z-]*[a-z])`).FindAllStringSubmatch(stdout+stderr, -1) {
			all[m[1]] = true
		}
		for _, f := range flagsOf(t, n) {
			all[f] = true
			if !strings.Contains(guide, "-"+f) {
				t.Errorf("pigclass %s --%s is not in the guide", n, f)
			}
		}
	}
	for _, m := range regexp.MustCompile(`(?:^|[\s(\x60])--([a-z][a-z-]*[a-z])`).FindAllStringSubmatch(guide, -1) {
		if !all[m[1]] && !slices.Contains([]string{"now"}, m[1]) { // systemctl enable --now
			t.Errorf("the guide names --%s, which no command has", m[1])
		}
	}
}
