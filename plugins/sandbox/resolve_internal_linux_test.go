package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestResolverMatchesEvalSymlinks: the plan's resolver says what
// filepath.EvalSymlinks says, for links relative and absolute, chains,
// ".." after a link, dangling links and loops, and sees a path the plan
// made after finding it missing.
func TestResolverMatchesEvalSymlinks(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"a/b/c", "x/y"} {
		if err := os.MkdirAll(filepath.Join(d, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"a/b/up":    "..",
		"a/b/c/abs": filepath.Join(d, "x"),
		"l1":        "l2",
		"l2":        "a/b/c/abs/y",
		"dotdot":    "a/b/c/abs/../a", // .. of where abs leads: d/a
		"dangle":    "nowhere",
		"loop1":     "loop2",
		"loop2":     "loop1/z",
		"self":      "self",
		"x/back":    "../a/b/up/b",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(d, name)); err != nil {
			t.Fatal(err)
		}
	}
	r := newResolver()
	paths := []string{"", "a", "a/b/up", "a/b/up/b/c", "a/b/c/abs/y", "l1", "l1/..", "dotdot", "dotdot/b",
		"dangle", "dangle/z", "loop1", "loop2/q", "self", "x/back/c/abs", "missing", "missing/deeper", "a/b/c/abs/y/../../a/b"}
	for round := 0; round < 2; round++ { // the second from what was kept
		for _, p := range paths {
			full := filepath.Join(d, p)
			want, werr := filepath.EvalSymlinks(full)
			got, gerr := r.eval(full)
			if got != want || (werr == nil) != (gerr == nil) {
				t.Errorf("%s: resolver %q (%v), EvalSymlinks %q (%v)", p, got, gerr, want, werr)
			}
		}
	}
	if err := os.Mkdir(filepath.Join(d, "missing"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.changed()
	if got, err := r.eval(filepath.Join(d, "missing")); err != nil || got != filepath.Join(d, "missing") {
		t.Errorf("a folder made after it was found missing: %q, %v", got, err)
	}
	if got := r.clean(filepath.Join(d, "l1", "new", "file")); got != filepath.Join(d, "x/y/new/file") {
		t.Errorf("clean: %q", got)
	}
}

// TestModulesWalkDepthBound: a folder deeper in .git/modules than any
// submodule's git folder lies is mounted read-only whole, with a note, and
// not walked into: one mkdir -p thousands of levels deep made every start
// take minutes.
func TestModulesWalkDepthBound(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `set -e; mkdir -p x/.git && cd x && echo 'ref: refs/heads/main' > .git/HEAD &&
		d=.git/modules/$(printf 'a/%.0s' $(seq 1 1800))m && mkdir -p "$d" && cp .git/HEAD "$d/HEAD" &&
		mkdir -p .git/modules/s && cp .git/HEAD .git/modules/s/HEAD`)
	cmd.Dir = d
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	t.Setenv("HOME", d)
	pl := mountPlan(Policy{ReadWrite: []string{d}}, d)
	bound := filepath.Join(d, "x/.git/modules", strings.Repeat("a/", maxModuleDepth+1))
	var ro, shallow bool
	for _, m := range pl.mounts {
		if len(m.path) > len(bound) {
			t.Errorf("planned beneath the depth bound: %s", m.path)
		}
		ro = ro || m.path == bound && m.readOnly
		shallow = shallow || m.path == filepath.Join(d, "x/.git/modules/s/hooks") && m.readOnly
	}
	if !ro || !shallow {
		t.Errorf("the folder at the bound read-only %v, a shallow submodule's hooks read-only %v", ro, shallow)
	}
	if !strings.Contains(strings.Join(pl.notes, "\n"), "read-only whole") {
		t.Errorf("no note on the deep folder: %q", pl.notes)
	}
}

// TestPlanCountsFoldedTargets: worktrees listings of links to one folder
// make targets that fold into two mounts; the plan counts them all and
// stops past maxPlanTargets, saying so.
func TestPlanCountsFoldedTargets(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	listings := maxPlanTargets/(2*maxModuleEntries) + 2
	cmd := exec.Command("sh", "-c", `set -e; mkdir -p x/.git/modules x/D x/w && cd x && echo 'ref: refs/heads/main' > .git/HEAD &&
		echo ../.. > D/commondir && : > D/config.worktree &&
		/usr/bin/perl -e 'for (1..$ARGV[1]) { symlink("$ARGV[0]/D", "w/e$_") or die }' "$PWD" "$1" &&
		for m in $(seq 1 "$2"); do mkdir .git/modules/m$m && ln .git/HEAD .git/modules/m$m/HEAD && cp -al w .git/modules/m$m/worktrees; done`,
		"sh", strconv.Itoa(maxModuleEntries), strconv.Itoa(listings))
	cmd.Dir = d
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	t.Setenv("HOME", d)
	pe := &planEnv{mayWrite: func(string) bool { return true }, settings: newSettingsReader(), extraSettings: newSettingsReader(), done: map[string]bool{}, res: newResolver(), extras: &extraCount{}}
	gs := gitMounts(filepath.Join(d, "x"), pe)
	extra := 0
	for _, m := range gs.mounts {
		if m.extra {
			extra++
		}
	}
	if extra > maxPlanTargets || !pe.extras.cut {
		t.Errorf("%d listings of %d links to one folder: %d extra targets planned (bound %d), cut %v", listings, maxModuleEntries, extra, maxPlanTargets, pe.extras.cut)
	}
	pl := mountPlan(Policy{ReadWrite: []string{d}}, d)
	if !strings.Contains(strings.Join(pl.notes, "\n"), "to look at") {
		t.Errorf("no note on the targets left out: %q", pl.notes)
	}
}

// TestResolverTooManyLinksDependsOnDepth: a path met past maxLinkDepth
// links fails again without a look when met as deep or deeper (a chain a
// command left cost minutes a start, resolved anew for each of thousands
// of paths through it), and still resolves when met with more links left,
// as filepath.EvalSymlinks says.
func TestResolverTooManyLinksDependsOnDepth(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// c0 -> c1 -> ... -> c(maxLinkDepth-1) -> "end": maxLinkDepth links.
	if err := os.Mkdir(filepath.Join(d, "end"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range maxLinkDepth {
		target := "c" + strconv.Itoa(i+1)
		if i == maxLinkDepth-1 {
			target = "end"
		}
		if err := os.Symlink(target, filepath.Join(d, "c"+strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	// outer -> c0: one link more than the bound.
	if err := os.Symlink("c0", filepath.Join(d, "outer")); err != nil {
		t.Fatal(err)
	}
	r := newResolver()
	for round := range 2 {
		if _, err := r.eval(filepath.Join(d, "outer")); err == nil {
			t.Errorf("round %d: outer resolved through %d links", round, maxLinkDepth+1)
		}
		if _, want := filepath.EvalSymlinks(filepath.Join(d, "outer")); want == nil {
			t.Errorf("filepath.EvalSymlinks resolves outer: the chain is not past its bound")
		}
	}
	if len(r.tooDeep) == 0 {
		t.Error("no path kept as past the bound")
	}
	got, err := r.eval(filepath.Join(d, "c0"))
	want, werr := filepath.EvalSymlinks(filepath.Join(d, "c0"))
	if err != nil || werr != nil || got != want {
		t.Errorf("c0 met first: %q, %v; EvalSymlinks %q, %v", got, err, want, werr)
	}
}
