package server

import "testing"

// TestBuildSaysWhichBuild: the version to quote is the module's, else the
// commit's first twelve characters, marked when the checkout had changes;
// the whole line names the commit, its time and Go.
func TestBuildSaysWhichBuild(t *testing.T) {
	for _, tc := range []struct {
		b            Build
		short, whole string
	}{
		{Build{Version: "v1.4.0", Go: "go1.26.8"}, "v1.4.0", "pigclass v1.4.0, built with go1.26.8"},
		{Build{Version: "(devel)", Commit: "b72b10773e7831410edf", Time: "2026-12-01T10:26:43Z", Modified: true, Go: "go1.26.8"},
			"b72b10773e78+modified", "pigclass (devel), commit b72b10773e7831410edf 2026-12-01T10:26:43Z (modified), built with go1.26.8"},
		{Build{Version: "(devel)"}, "(devel)", "pigclass (devel)"},
	} {
		if got := tc.b.Short(); got != tc.short {
			t.Errorf("%+v: Short %q, want %q", tc.b, got, tc.short)
		}
		if got := tc.b.String(); got != tc.whole {
			t.Errorf("%+v: String %q, want %q", tc.b, got, tc.whole)
		}
	}
	if b := BuildInfo(); b.Go == "" || b.Short() == "" {
		t.Errorf("the test binary's build: %+v", b)
	}
}
