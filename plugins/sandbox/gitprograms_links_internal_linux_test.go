package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// A setting's program reached through links mounts each link on the way
// (mountPlan pins a link itself) and the file it ends at; a bare word
// counts only as an existing file, and a missing one is never made; a
// chain longer than maxLinkHops is followed no further.
func TestProgramMountsLinksOnTheWay(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"bin", "pkg", "chain"} {
		if err := os.Mkdir(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "pkg", "tool.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	link("../pkg/tool.sh", "bin/tool")
	link("bin/tool", "top")
	// chain/l0 -> l1 -> … -> l11 -> ../pkg/tool.sh: past maxLinkHops.
	for i := range 12 {
		target := "l" + strconv.Itoa(i+1)
		if i == 11 {
			target = "../pkg/tool.sh"
		}
		link(target, filepath.Join("chain", "l"+strconv.Itoa(i)))
	}
	pe := &planEnv{mayWrite: func(string) bool { return true }, settings: newSettingsReader(), res: newResolver()}
	roots := []string{filepath.Join(work, ".git"), work}
	tool := filepath.Join(work, "pkg", "tool.sh")
	for _, c := range []struct {
		p    settingProgram
		want []string
	}{
		{settingProgram{filepath.Join(work, "bin", "tool"), true}, []string{filepath.Join(work, "bin", "tool"), tool}},
		{settingProgram{filepath.Join(work, "top"), false}, []string{filepath.Join(work, "top"), filepath.Join(work, "bin", "tool"), tool}},
		{settingProgram{tool, true}, []string{tool}},
		// A folder is no program.
		{settingProgram{filepath.Join(work, "bin"), false}, nil},
		// Missing, not the first word: nothing made.
		{settingProgram{filepath.Join(work, "strip.sh"), false}, nil},
	} {
		var got []string
		for _, m := range programMounts(c.p, roots, pe) {
			if !m.readOnly {
				t.Errorf("%s: %s is not read-only", c.p.path, m.path)
			}
			got = append(got, m.path)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("programMounts(%s) = %q, want %q", c.p.path, got, c.want)
		}
	}
	if _, err := os.Lstat(filepath.Join(work, "strip.sh")); err == nil {
		t.Error("a missing word that is not the program was made")
	}
	links := linksOnTheWay(filepath.Join(work, "chain", "l0"), pe)
	if len(links) != maxLinkHops || links[0] != filepath.Join(work, "chain", "l0") {
		t.Errorf("linksOnTheWay of a 12-link chain = %q, want the first %d", links, maxLinkHops)
	}
}
