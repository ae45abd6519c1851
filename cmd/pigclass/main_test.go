package main

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// sideBySide is how many of the command's tests run at once unless
// -parallel says otherwise: the district's tests mostly wait on their
// processes (servers, proxies, Postgres), and the duels' tests fill a
// core meanwhile.
const sideBySide = 3

// TestMain runs the package's tests sideBySide at a time unless
// -parallel is given.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", fmt.Sprint(sideBySide))
	}
	os.Exit(m.Run())
}
