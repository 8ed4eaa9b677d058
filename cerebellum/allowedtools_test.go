package cerebellum_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// TestSkillAllowedToolsRespectStates: a skill's allowed-tools never loads
// a capability the user switched off, one that failed, or one that does
// not exist, whether named by capability or by one of its tools; and a
// skill the user switched off loads nothing when it is read.
func TestSkillAllowedToolsRespectStates(t *testing.T) {
	e := skillsEnv(t)
	e.addWorkspace("off", skill("off", "Switched off by the user.", "off_run"), true)
	e.addWorkspace("ghost", skill("ghost", "Failed: tools without a plugin.", "ghost_run"), false)
	e.addWorkspace("greedy", "---\nname: greedy\ndescription: Asks for everything.\nallowed-tools: off off_run ghost ghost_run nope calc_eval\n---\nx\n", false)
	e.addWorkspace("sleeper", "---\nname: sleeper\ndescription: Switched off, asks for calc.\nallowed-tools: calc_eval\n---\nx\n", false)
	r := e.open()
	for _, n := range []string{"off", "sleeper"} {
		if err := manage.New(r, manage.Options{}).Disable(n); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	sess := r.NewSession("c", nil)
	res, err := r.Call(ctx, sess, "skill_read_source", json.RawMessage(`{"capability":"greedy"}`))
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	for _, n := range []string{"off", "ghost"} {
		if sess.IsLoaded(n) {
			t.Errorf("allowed-tools loaded %s", n)
		}
	}
	if !sess.IsLoaded("calc") {
		t.Errorf("calc not loaded: %s", res.Content)
	}
	callable, _, _ := strings.Cut(res.Content[strings.Index(res.Content, "</skill>"):], "Not available")
	if strings.Contains(callable, "off_run") || strings.Contains(callable, "ghost_run") {
		t.Errorf("result offers an unusable tool:\n%s", res.Content)
	}
	for _, td := range r.Tools(sess) {
		if td.Name == "off_run" || td.Name == "ghost_run" {
			t.Errorf("the next request offers %s", td.Name)
		}
	}

	sess2 := r.NewSession("d", nil)
	res, _ = r.Call(ctx, sess2, "skill_read_source", json.RawMessage(`{"capability":"sleeper"}`))
	if sess2.IsLoaded("calc") {
		t.Errorf("reading a switched-off skill loaded its allowed-tools: %s", res.Content)
	}
}

// TestSkillCollectionPick: only picks what it names. A root picks that
// skill alone even when another skill's name equals it (the Capabilities
// page picks by root), and a name given twice is not "missing".
func TestSkillCollectionPick(t *testing.T) {
	src := t.TempDir()
	for dir, name := range map[string]string{"pdf": "pdf", "extra/pdf": "pdf-extra", "calc-notes": "calc-notes"} {
		if err := os.MkdirAll(filepath.Join(src, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, dir, "SKILL.md"), []byte(skill(name, "Skill "+name+".")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		only []string
		want []string // roots installed, in order
	}{
		{[]string{"pdf"}, []string{"pdf"}},
		{[]string{"extra/pdf"}, []string{"extra/pdf"}},
		{[]string{"calc-notes", "calc-notes"}, []string{"calc-notes"}},
	}
	for _, tc := range tests {
		e := skillsEnv(t)
		r := e.open()
		items, err := manage.New(r, manage.Options{}).InstallCollection(context.Background(), src, tc.only, manage.InstallOptions{})
		if err != nil {
			t.Errorf("only %q: %v", tc.only, err)
			continue
		}
		var got []string
		for _, it := range items {
			got = append(got, it.Root)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("only %q installed %q, want %q", tc.only, got, tc.want)
		}
	}
}

// TestSkillCollectionRefusedSkillListed: a skill whose SKILL.md the
// survey refuses (here a link) is an item of its own with the reason, and
// nothing of it is installed.
func TestSkillCollectionRefusedSkillListed(t *testing.T) {
	src := t.TempDir()
	for _, d := range []string{"good", "linked"} {
		if err := os.MkdirAll(filepath.Join(src, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "good", "SKILL.md"), []byte(skill("good", "Good.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src, "good", "SKILL.md"), filepath.Join(src, "linked", "SKILL.md")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	e := skillsEnv(t)
	r := e.open()
	items, err := manage.New(r, manage.Options{}).InstallCollection(context.Background(), src, nil, manage.InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].Err != nil || items[1].Root != "linked" || items[1].Err == nil || !strings.Contains(items[1].Error, "link") {
		t.Fatalf("items: %+v", items)
	}
	if _, err := os.Stat(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "linked")); err == nil {
		t.Error("the refused skill was installed")
	}
}

// TestSkillAllowedToolsExactNameWins: an allowed-tools entry naming a tool
// exactly loads that tool's capability, never another one's whose tool
// differs only in case (which one was left to map order).
func TestSkillAllowedToolsExactNameWins(t *testing.T) {
	e := skillsEnv(t)
	e.addWorkspace("lookalike", skill("lookalike", "A tool named like calc's.", "CALC_EVAL"), true)
	e.addWorkspace("user", "---\nname: user\ndescription: Uses calc.\nallowed-tools: calc_eval\n---\nx\n", false)
	r := e.open()
	if c := stateOf(t, r, "lookalike"); !c.Usable() {
		t.Fatalf("lookalike is %s: %s", c.State, c.Error)
	}
	for i := range 30 {
		sess := r.NewSession("c", nil)
		res, err := r.Call(context.Background(), sess, "skill_read_source", json.RawMessage(`{"capability":"user"}`))
		if err != nil || res.IsError {
			t.Fatalf("%+v %v", res, err)
		}
		if sess.IsLoaded("lookalike") || !sess.IsLoaded("calc") {
			t.Fatalf("read %d loaded the look-alike:\n%s", i, res.Content)
		}
	}
}
