package main

import (
	"strings"
	"testing"
)

// TestReviewOnlyNamingNothing: --only whose list names no skill ("," or
// " , ") is refused; it never means every skill (with --replace that
// would overwrite every installed one).
func TestReviewOnlyNamingNothing(t *testing.T) {
	for _, only := range []string{",", " , ", ",,"} {
		ws := t.TempDir()
		code, out, errs := cli(t, ws, "caps", "install", collection, "--only", only)
		if code == 0 || strings.Contains(out, "Installed") || !strings.Contains(errs, "--only") {
			t.Errorf("--only %q: %d %q %q", only, code, out, errs)
		}
		if _, out, _ := cli(t, ws, "caps", "list", "--no-check"); strings.Contains(out, "pdf") {
			t.Errorf("--only %q installed something:\n%s", only, out)
		}
	}
}
