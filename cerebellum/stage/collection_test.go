package stage

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

type foundCase struct {
	root, name string
	files      int
	problem    error // nil: installable
}

func TestSurvey(t *testing.T) {
	cases := []struct {
		input string
		kind  Kind
		want  []foundCase
	}{
		{input: "collection.zip", kind: KindZip, want: []foundCase{
			{root: "skills-main/skills/broken", name: "broken", files: 1, problem: ErrBadName},
			{root: "skills-main/skills/pdf", name: "pdf", files: 2},
			{root: "skills-main/skills/web", name: "web", files: 2},
			{root: "skills-main/template", name: "template", files: 1},
		}},
		{input: "collection-folder", kind: KindFolder, want: []foundCase{
			{root: "skills/broken", name: "broken", files: 2, problem: ErrMultipleSkillMD},
			{root: "skills/broken/examples", name: "examples", files: 1},
			{root: "skills/pdf", name: "pdf", files: 2},
			{root: "skills/web", name: "web", files: 2},
			{root: "template", name: "template", files: 1},
		}},
		// A single capability is a collection of one.
		{input: "one-folder.zip", kind: KindZip, want: []foundCase{{root: "pdf-tools", name: "pdf-tools", files: 2}}},
		{input: "root.zip", kind: KindZip, want: []foundCase{{root: "", name: "root", files: 3}}},
		{input: "lone.md", kind: KindSkillFile, want: []foundCase{{root: "", name: "lone", files: 1}}},
	}
	for _, tc := range cases {
		t.Run(tc.input, func(t *testing.T) {
			c, err := Survey(filepath.Join("testdata", "happy", tc.input), DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != tc.kind {
				t.Errorf("kind %q, want %q", c.Kind, tc.kind)
			}
			if len(c.Skills) != len(tc.want) {
				t.Fatalf("found %q, want %d skills", c.Names(), len(tc.want))
			}
			for i, w := range tc.want {
				f := c.Skills[i]
				if f.Root != w.root || f.Name != w.name || f.Files != w.files {
					t.Errorf("skill %d = %q %q %d files, want %q %q %d", i, f.Root, f.Name, f.Files, w.root, w.name, w.files)
				}
				if (w.problem == nil) != (f.Problem == nil) || w.problem != nil && !errors.Is(f.Problem, w.problem) {
					t.Errorf("%s: problem %v, want %v", f.Name, f.Problem, w.problem)
				}
			}
		})
	}
}

// TestSurveyRefusesEscapes: a path that escapes fails the whole survey,
// whichever skill it sits beside.
func TestSurveyRefusesEscapes(t *testing.T) {
	for _, in := range []string{"zipslip-dotdot.zip", "abs-unix.zip"} {
		if _, err := Survey(filepath.Join("testdata", "hostile", in), DefaultLimits()); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("%s: err = %v, want ErrUnsafePath", in, err)
		}
	}
}

// TestStageRoot stages each installable skill of a collection on its own;
// the broken one fails alone, and failures leave nothing behind.
func TestStageRoot(t *testing.T) {
	cases := []struct {
		input, root string
		files       []string
		exec        []string
		want        error
	}{
		{input: "collection.zip", root: "skills-main/skills/pdf", files: []string{"SKILL.md", "scripts/fill.py"}},
		{input: "collection.zip", root: "skills-main/skills/web", files: []string{"SKILL.md", "scripts/components.tar.gz"}},
		{input: "collection.zip", root: "skills-main/template", files: []string{"SKILL.md"}},
		{input: "collection.zip", root: "skills-main/skills/broken", want: ErrBadName},
		{input: "collection.zip", root: "skills-main/spec", want: ErrNoSkillMD},
		{input: "collection-folder", root: "skills/pdf", files: []string{"SKILL.md", "scripts/fill.py"}},
		{input: "collection-folder", root: "skills/broken/examples", files: []string{"SKILL.md"}},
		{input: "collection-folder", root: "skills/broken", want: ErrMultipleSkillMD},
	}
	for _, tc := range cases {
		t.Run(tc.input+"/"+tc.root, func(t *testing.T) {
			_, parent := workspace(t)
			before, _ := os.ReadDir(parent)
			st, err := StageRoot(filepath.Join("testdata", "happy", tc.input), parent, tc.root, DefaultLimits())
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				if after, _ := os.ReadDir(parent); len(after) != len(before) {
					t.Errorf("a failed stage left %d entries, had %d", len(after), len(before))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := stagedTree(t, st.Dir); !slices.Equal(got, tc.files) || !slices.Equal(st.Files, tc.files) {
				t.Errorf("staged %q (Files %q), want %q", got, st.Files, tc.files)
			}
			if st.Root != tc.root {
				t.Errorf("Root = %q", st.Root)
			}
		})
	}
}
