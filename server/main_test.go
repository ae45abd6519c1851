package server

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// browserParallel is how many tests run side by side unless -parallel
// says otherwise: the browser tests spend most of their time waiting on
// a page, so three times the cores keep them busy. (When every page
// polled, eight took longer than four on two cores: the polls filled
// them. With pages told by their streams, six took 89 s where four took
// 97, the package alone.)
const browserParallel = 6

// TestMain runs the package's tests, the browser tests browserParallel
// at a time unless -parallel is given, then ends the chromium they share
// (sharedChromium).
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", fmt.Sprint(browserParallel))
	}
	code := m.Run()
	stopChromium()
	os.Exit(code)
}
