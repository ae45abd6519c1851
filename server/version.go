package server

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Build is what a binary says of itself, from the build's own information
// (runtime/debug.ReadBuildInfo): the module's version, and the commit and
// its time when it was built from a checkout.
type Build struct {
	Version  string // the module's version: "(devel)" for a build from a checkout
	Commit   string // the VCS commit, "" when unknown
	Time     string // the commit's time (RFC 3339), "" when unknown
	Modified bool   // the checkout had changes not committed
	Go       string // the Go version it was built with
}

// releaseVersion is a release's version, stamped by the release's build
// (.ci/release: -ldflags "-X pigclass/server.releaseVersion=v1.2.3");
// "" in any other build.
var releaseVersion string

// Licence is what pigclass is licensed under: the LICENSE file at the top
// of its source; the libraries inside it keep their own licences (the
// release's THIRD_PARTY_NOTICES).
const Licence = "MIT"

// BuildInfo reads the running binary's build information.
func BuildInfo() Build {
	b := Build{Version: "(devel)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Go = bi.GoVersion
	if bi.Main.Version != "" {
		b.Version = bi.Main.Version
	}
	if releaseVersion != "" {
		b.Version = releaseVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// Short is the version to quote: the module's, else the commit's first
// twelve characters (with "+modified" for changes not committed).
func (b Build) Short() string {
	if b.Version != "(devel)" || b.Commit == "" {
		return b.Version
	}
	c := b.Commit[:min(12, len(b.Commit))]
	if b.Modified {
		c += "+modified"
	}
	return c
}

// String is the whole of it on one line, as `pigclass version` prints it.
func (b Build) String() string {
	parts := []string{"pigclass " + b.Version}
	if b.Commit != "" {
		c := "commit " + b.Commit
		if b.Time != "" {
			c += " " + b.Time
		}
		if b.Modified {
			c += " (modified)"
		}
		parts = append(parts, c)
	}
	if b.Go != "" {
		parts = append(parts, "built with "+b.Go)
	}
	return fmt.Sprint(strings.Join(parts, ", "))
}
