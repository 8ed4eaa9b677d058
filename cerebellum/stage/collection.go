package stage

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// collectionScale bounds a collection as a whole: at most this many times
// the files and bytes one capability may hold.
const collectionScale = 8

// selection says what a plan is for: one capability (the zero value), a
// survey of a collection, or one skill (root) of a collection.
type selection struct {
	survey bool
	root   *string
}

func (s selection) collection() bool { return s.survey || s.root != nil }

// Found is one skill folder of a collection.
type Found struct {
	// Root is the skill's folder inside the input, a slash path ("" when
	// SKILL.md sits at the top).
	Root string `json:"root"`
	// Name is Root's last component (for the top, the input's name
	// without its extension): how a user picks it.
	Name  string `json:"name"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
	// Problem says why the skill cannot be installed as it is; nil when
	// staging it is expected to succeed.
	Problem error `json:"-"`
}

// Collection is what Survey found in an input.
type Collection struct {
	Kind    Kind     `json:"kind"`
	Skills  []Found  `json:"skills"` // sorted by Root
	Ignored []string `json:"ignored,omitempty"`
}

// Names lists the skills' names in order.
func (c *Collection) Names() []string {
	out := make([]string, len(c.Skills))
	for i, f := range c.Skills {
		out[i] = f.Name
	}
	return out
}

// Survey lists the skills a folder or a .zip/.skill archive holds: every
// folder with a SKILL.md, at any depth, with its size. Nothing is written.
// Names, types and sizes are checked as Stage checks them, but a problem
// inside one skill is that skill's Problem, not a failure of the whole
// input; paths that escape, a corrupt archive and the collection-wide
// bounds (collectionScale times Limits) still fail it. Files outside every
// skill folder (a README, a spec/ folder) are never staged. A lone .md
// file is a collection of one.
func Survey(input string, lim Limits) (*Collection, error) {
	lim = lim.WithDefaults()
	kind, fi, err := kindOf(input)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(input)
	var p *planner
	sel := selection{survey: true}
	switch kind {
	case KindSkillFile:
		return &Collection{Kind: kind, Skills: []Found{{Name: strings.TrimSuffix(base, filepath.Ext(base)), Files: 1, Bytes: fi.Size()}}}, nil
	case KindFolder:
		in, err := os.OpenRoot(input)
		if err != nil {
			return nil, fmt.Errorf("stage: %w", err)
		}
		defer in.Close()
		if p, err = planFolder(in, base, lim, sel); err != nil {
			return nil, err
		}
	default:
		f, err := os.Open(input)
		if err != nil {
			return nil, fmt.Errorf("stage: %w", err)
		}
		defer f.Close()
		if p, err = planZip(f, base, fi.Size(), lim, sel); err != nil {
			return nil, err
		}
	}
	return p.collection(base, lim), nil
}

// StageRoot stages one skill of a collection, the folder root that Survey
// reported, exactly as Stage stages a single capability: held to the
// limits, every entry inside root checked, SKILL.md at the top of Dir.
// Entries outside root are neither checked (beyond their paths) nor
// written.
func StageRoot(input, parent, root string, lim Limits) (*Staged, error) {
	lim = lim.WithDefaults()
	kind, fi, err := kindOf(input)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(input)
	if kind == KindFolder && inside(parent, input) {
		return nil, &Error{Kind: kind, Input: base, Err: ErrUnsupportedInput, Detail: "it holds the staging area " + quote(parent) + "; drop the collection folder itself"}
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("stage: create staging area: %w", err)
	}
	if kind == KindSkillFile {
		if root != "" {
			return nil, &Error{Kind: kind, Input: base, Err: ErrNoSkillMD, Detail: fmt.Sprintf("a lone file holds no folder %s", quote(root))}
		}
		return stageSkillFile(input, base, fi.Size(), parent, lim)
	}
	sel := selection{root: &root}
	if kind == KindFolder {
		return stageFolder(input, base, parent, lim, sel)
	}
	return stageZip(input, base, fi.Size(), parent, lim, sel)
}

// pick finds SKILL.md and the capability root: the one-capability layout,
// or, when staging one skill of a collection, SKILL.md directly in it.
func (p *planner) pick() (root, skill string, err error) {
	if p.sel.root == nil {
		return p.layout()
	}
	root = *p.sel.root
	var skills []string
	for _, e := range p.entries {
		if !e.dir && isSkillMD(e.clean) {
			skills = append(skills, e.clean)
		}
	}
	sort.Strings(skills)
	for _, s := range skills {
		if dir, _ := splitLast(s); dir == root {
			skill = s
		}
	}
	switch {
	case skill == "":
		return "", "", p.failInput(ErrNoSkillMD, "there is no SKILL.md in %s; list the skills with a survey of the input", quote(root+"/"))
	case len(skills) > 1:
		return "", "", p.failInput(ErrMultipleSkillMD, "%s holds more than one SKILL.md (%s); install each skill on its own", quote(root+"/"), list(skills))
	}
	return root, skill, nil
}

// collection turns a survey's plan into its listing.
func (p *planner) collection(base string, lim Limits) *Collection {
	c := &Collection{Kind: p.kind, Ignored: p.Ignored()}
	var roots []string
	for _, e := range p.entries {
		if !e.dir && isSkillMD(e.clean) {
			dir, _ := splitLast(e.clean)
			roots = append(roots, dir)
		}
	}
	sort.Strings(roots)
	roots = compactSorted(roots)
	// owner is the innermost skill folder holding a path, or -1.
	owner := func(clean string) int {
		best := -1
		for i, r := range roots {
			if under(clean, r) && (best < 0 || len(r) > len(roots[best])) {
				best = i
			}
		}
		return best
	}
	c.Skills = make([]Found, len(roots))
	for i, r := range roots {
		name := path.Base(r)
		if r == "" {
			name = strings.TrimSuffix(base, filepath.Ext(base))
		}
		c.Skills[i] = Found{Root: r, Name: name}
	}
	for _, e := range p.entries {
		if e.dir {
			continue
		}
		// A skill holding another skill's folder counts (and stages) its files too.
		for i, r := range roots {
			if under(e.clean, r) {
				c.Skills[i].Files++
				c.Skills[i].Bytes += e.size
			}
		}
	}
	for i, r := range roots {
		f := &c.Skills[i]
		for j, inner := range roots {
			if j != i && r != inner && under(inner, r) && f.Problem == nil {
				f.Problem = p.failInput(ErrMultipleSkillMD, "%s holds another skill in %s; install each skill on its own", quote(r+"/"), quote(inner+"/"))
			}
		}
	}
	var orphans []Found
	for _, ft := range p.faults {
		raw := rawSlash(ft.raw)
		switch i := owner(raw); {
		case i >= 0 && c.Skills[i].Problem == nil:
			c.Skills[i].Problem = ft.err
		case i < 0 && isSkillMD(strings.TrimSuffix(raw, "/")):
			// The skill's own SKILL.md was refused (a link, a bad name, a
			// folder differing only in case from another): list the skill
			// with why, rather than leave it out without a word.
			dir, _ := splitLast(strings.TrimSuffix(raw, "/"))
			if !slices.ContainsFunc(orphans, func(f Found) bool { return f.Root == dir }) {
				name := path.Base(dir)
				if dir == "" {
					name = strings.TrimSuffix(base, filepath.Ext(base))
				}
				orphans = append(orphans, Found{Root: dir, Name: name, Problem: ft.err})
			}
		}
	}
	if len(orphans) > 0 {
		c.Skills = append(c.Skills, orphans...)
		sort.SliceStable(c.Skills, func(i, j int) bool { return c.Skills[i].Root < c.Skills[j].Root })
	}
	for i := range c.Skills {
		f := &c.Skills[i]
		switch {
		case f.Problem != nil:
		case f.Files > lim.MaxFiles:
			f.Problem = p.failInput(ErrTooManyFiles, "%s holds %d files; a capability may hold %d", quote(f.Root+"/"), f.Files, lim.MaxFiles)
		case f.Bytes > lim.MaxTotalBytes:
			pr := lim.totalTooLarge()
			f.Problem = p.failInput(pr.err, "%s: %s", quote(f.Root+"/"), pr.detail)
		}
	}
	return c
}

func compactSorted(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
