package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

func TestDiffTextSaysWhatNowFails(t *testing.T) {
	fails := map[string]string{"calc": "SKILL.md: line 3: description is required", "new": "no SKILL.md"}
	failure := func(n string) string { return fails[n] }
	tests := []struct {
		name string
		diff cerebellum.Diff
		want string
	}{
		{name: "nothing", diff: cerebellum.Diff{}, want: "Nothing changed on disk since the last Resync."},
		{name: "changed and fine", diff: cerebellum.Diff{Changed: []string{"hello", "web"}}, want: "Changed: hello, web"},
		{name: "changed, one now fails", diff: cerebellum.Diff{Changed: []string{"calc", "hello"}},
			want: "Changed: hello\nChanged — now fails: calc: SKILL.md: line 3: description is required"},
		{name: "added failing, removed", diff: cerebellum.Diff{Added: []string{"new"}, Removed: []string{"old"}},
			want: "Added — fails to load: new: no SKILL.md\nRemoved: old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := diffText(tt.diff, failure); got != tt.want {
				t.Errorf("diffText = %q, want %q", got, tt.want)
			}
		})
	}
}

// A hand edit that breaks a capability reads, after Resync, as a change
// that now fails, with the reason.
func TestResyncSaysAChangeNowFails(t *testing.T) {
	h := newHarness(t, func(ws string) { copyFixture(t, "hello", filepath.Join(ws, "brain", "cerebellum")) })
	h.s.Show(hint.PageCapabilities, "")
	manifest := filepath.Join(h.capsDir(), "hello", "SKILL.md")
	if err := os.WriteFile(manifest, []byte("---\nname: hello\n---\n\nNo description now.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.tap("Resync")
	got := h.s.caps.result.Text()
	if !strings.HasPrefix(got, "Changed — now fails: hello: ") || len(got) <= len("Changed — now fails: hello: ") {
		t.Errorf("Resync shows %q, want the change to say it now fails and why", got)
	}
}
