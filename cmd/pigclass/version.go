package main

import (
	"fmt"

	"pigclass/server"
)

// runVersion prints what the binary says of itself (server.BuildInfo):
// the version to quote in a support request, then the whole build and
// the licence.
func runVersion(e env, args []string) error {
	fs := newFlags(e, "version", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	b := server.BuildInfo()
	fmt.Fprintln(e.stdout, b.Short())
	fmt.Fprintln(e.stdout, b.String())
	fmt.Fprintf(e.stdout, "pigclass is free software under the %s licence (the file LICENSE); the libraries inside it keep their own licences (THIRD_PARTY_NOTICES, beside it in a release).\n", server.Licence)
	return nil
}
