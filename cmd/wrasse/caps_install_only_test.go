package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallOnlyNamingNothing: --only whose list names no skill ("," or
// " , ") is refused; it never means every skill (with --replace that
// would overwrite every installed one).
func TestInstallOnlyNamingNothing(t *testing.T) {
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

// TestInstallOnlyExampleIsUsable: the --only example in the refusal of a
// collection never holds a name --only cannot spell (one with a comma).
func TestInstallOnlyExampleIsUsable(t *testing.T) {
	src := t.TempDir()
	for dir, name := range map[string]string{"a,b": "ab", "c": "c", "e": "e"} {
		if err := os.MkdirAll(filepath.Join(src, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		md := "---\nname: " + name + "\ndescription: Skill " + name + ".\n---\nx\n"
		if err := os.WriteFile(filepath.Join(src, dir, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws := t.TempDir()
	_, _, errs := cli(t, ws, "caps", "install", src)
	if !strings.Contains(errs, "--only c,e") {
		t.Fatalf("refusal: %q", errs)
	}
	if code, out, errs := cli(t, ws, "caps", "install", src, "--only", "c,e"); code != 0 || !strings.Contains(out, "Installed e") {
		t.Errorf("the example does not install: %d %q %q", code, out, errs)
	}
}
