package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The walk finds repositories (a .git folder or file) down to
// maxRepoDepth levels below the grant, and not in package folders, build
// output or dot folders, nor the grant's own (gitMounts has that one).
func TestReposBeneath(t *testing.T) {
	grant := t.TempDir()
	for _, d := range []string{
		".git", // the grant's own
		"app/.git",
		"a/b/c/d/e/.git",   // 5 levels down: found
		"a/b/c/d/e/f/.git", // 6: past the limit
		"app/node_modules/dep/.git",
		"web/vendor/lib/.git",
		".cache/tool/.git",
		"app/sub/.git", // a repository inside another: found too
	} {
		if err := os.MkdirAll(filepath.Join(grant, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(grant, "wt"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(grant, "wt", ".git"), []byte("gitdir: ../app/.git/worktrees/wt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, note := reposBeneath(grant)
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], grant+"/")
	}
	slices.Sort(got)
	want := []string{"a/b/c/d/e", "app", "app/sub", "wt"}
	if !slices.Equal(got, want) || note != "" {
		t.Errorf("reposBeneath = %q, %q; want %q and no note", got, note, want)
	}
}

// A grant with more entries than the walk reads is cut short, and the
// note says where and what to do.
func TestReposBeneathCutShort(t *testing.T) {
	grant := t.TempDir()
	for i := range maxWalkEntries + 1 {
		if err := os.WriteFile(filepath.Join(grant, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, note := reposBeneath(grant)
	if !strings.Contains(note, "stopped after") || !strings.Contains(note, grant) || !strings.Contains(note, "grant a narrower folder") {
		t.Errorf("note = %q; want it to say the search beneath %s stopped, and what to do", note, grant)
	}
}

// extensions.worktreeConfig read from a repository's settings, as git
// takes it; sections and keys in any case, the value a git boolean.
func TestWorktreeConfigOn(t *testing.T) {
	for _, tc := range []struct {
		config string
		want   bool
	}{
		{"[core]\n\tbare = false\n", false},
		{"[extensions]\n\tworktreeConfig = true\n", true},
		{"[extensions]\n\tworktreeconfig = yes\n", true},
		{"[Extensions]\n\tWorktreeConfig\n", true},
		{"[extensions] worktreeConfig = 1\n", true},
		{"[extensions]\n\tworktreeConfig = false\n", false},
		{"[core]\n\tworktreeConfig = true\n", false},
		{"[extensions]\n\tobjectFormat = sha1\n[core]\n\tworktreeConfig = true\n", false},
		// Quoting and a continuation line, which git reads as "true".
		{"[extensions]\n\tworktreeConfig = \"tr\\\nue\"\n", true},
		{"[extensions]\n\tworktreeConfig = true\n\tworktreeConfig = off\n", false},
		{"[extensions \"x\"]\n\tworktreeConfig = true\n", false},
	} {
		path := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(path, []byte(tc.config), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := worktreeConfigOn(path); got != tc.want {
			t.Errorf("worktreeConfigOn(%q) = %v, want %v", tc.config, got, tc.want)
		}
	}
}
