package main

import (
	"fmt"

	"pigclass/server"
)

// runVersion prints what the binary says of itself (server.BuildInfo):
// the version to quote in a support request, then the whole build.
func runVersion(e env, args []string) error {
	fs := newFlags(e, "version", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	b := server.BuildInfo()
	fmt.Fprintln(e.stdout, b.Short())
	fmt.Fprintln(e.stdout, b.String())
	return nil
}
