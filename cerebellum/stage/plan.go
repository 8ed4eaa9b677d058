package stage

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// entry is one file or folder of the input that will be staged.
type entry struct {
	raw   string // the name as the input spells it, for messages
	clean string // canonical slash path inside the input
	dir   bool
	size  int64       // declared (zip) or Lstat (folder) size
	exec  bool        // the owner may execute it (zip mode bits or Lstat)
	zf    *zip.File   // zip entries
	info  fs.FileInfo // folder entries: what was checked, to detect a swap before copying
}

// planner checks every entry of an input before anything is written: names,
// depth, collisions, counts, declared sizes, and where SKILL.md is.
type planner struct {
	kind    Kind
	input   string
	lim     Limits
	entries []entry
	ignored map[string]bool
	files   int
	total   int64
	seen    map[string]node // by case-folded path
	sel     selection
	// faults are the rejections a survey attributes to one skill instead
	// of failing the whole input, by the entry's path as named there.
	faults []fault
}

// fault is a rejection recorded by a survey.
type fault struct {
	raw string
	err error
}

// fatalErr marks a rejection of the whole input even in a survey (the
// collection-wide bounds).
type fatalErr struct{ error }

func (e fatalErr) Unwrap() error { return e.error }

// keep decides what a rejection of one entry means: the end of Stage; in a
// survey, a fault of the skill holding it (paths that escape, corrupt
// archives and I/O failures still end it); when staging one skill of a
// collection, nothing unless the entry lies inside that skill.
func (p *planner) keep(raw string, err error) error {
	var se *Error
	var fe fatalErr
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe):
		return fe.error
	case !errors.As(err, &se) || errors.Is(err, ErrUnsafePath) || errors.Is(err, ErrCorrupt):
		return err
	case p.sel.survey:
		p.faults = append(p.faults, fault{raw: raw, err: err})
		return nil
	case p.sel.root != nil && !under(rawSlash(raw), *p.sel.root):
		return nil
	}
	return err
}

// rawSlash is an entry name with backslashes as separators, for matching
// it to a skill folder when it could not be cleaned.
func rawSlash(raw string) string { return strings.TrimPrefix(strings.ReplaceAll(raw, `\`, "/"), "./") }

// under reports whether clean is root or lies beneath it ("" holds everything).
func under(clean, root string) bool {
	return root == "" || clean == root || strings.HasPrefix(clean, root+"/")
}

type node struct {
	path string
	file bool
}

func newPlanner(kind Kind, input string, lim Limits, sel selection) *planner {
	return &planner{kind: kind, input: input, lim: lim, ignored: map[string]bool{}, seen: map[string]node{}, sel: sel}
}

func (p *planner) fail(raw string, pr *problem) error {
	return &Error{Kind: p.kind, Input: p.input, Entry: raw, Err: pr.err, Detail: pr.detail}
}

func (p *planner) failInput(err error, format string, args ...any) error {
	return &Error{Kind: p.kind, Input: p.input, Err: err, Detail: fmt.Sprintf(format, args...)}
}

// classify cleans a name. skip is set for the top folder itself and for
// junk (which it records).
func (p *planner) classify(raw string, backslashSep, dirHint bool) (clean string, dir, skip bool, err error) {
	clean, dir, pr := cleanName(raw, backslashSep)
	if pr != nil {
		return "", false, false, p.fail(raw, pr)
	}
	dir = dir || dirHint
	if clean == "" {
		if !dir {
			return "", false, false, p.fail(raw, newProblem(ErrBadName, "the name is empty"))
		}
		return "", true, true, nil
	}
	if j := junkPrefix(clean, dir); j != "" {
		p.ignored[j] = true
		return clean, dir, true, nil
	}
	if d := depth(clean); d > p.lim.MaxDepth {
		return "", false, false, p.fail(raw, newProblem(ErrTooDeep, "the path is %d levels deep; the limit is %d", d, p.lim.MaxDepth))
	}
	return clean, dir, false, nil
}

// add records a checked entry: collisions, then (files) count, declared
// size and archive extension.
func (p *planner) add(e entry) error {
	if p.sel.root != nil && !under(e.clean, *p.sel.root) {
		return nil // another skill of the collection, or none
	}
	parent := e.clean
	for {
		i := strings.LastIndexByte(parent, '/')
		if i < 0 {
			break
		}
		parent = parent[:i]
		if err := p.collide(e.raw, parent, false); err != nil {
			return err
		}
	}
	if err := p.collide(e.raw, e.clean, !e.dir); err != nil {
		return err
	}
	p.entries = append(p.entries, e)
	if e.dir {
		return nil
	}
	p.files++
	if p.sel.survey {
		// A collection is bounded as a whole; each skill is held to the
		// limits when it is staged (and in Survey's listing).
		p.total += e.size
		switch {
		case p.files > p.lim.MaxFiles*collectionScale:
			return fatalErr{p.failInput(ErrTooManyFiles, "more than %d files in all; install its skills from smaller archives", p.lim.MaxFiles*collectionScale)}
		case p.total > p.lim.MaxTotalBytes*collectionScale:
			return fatalErr{p.failInput(ErrTooLarge, "the files add up to more than %s in all; install its skills from smaller archives", size(p.lim.MaxTotalBytes*collectionScale))}
		case e.size > p.lim.fileMax(e.clean):
			return p.fail(e.raw, p.lim.fileTooLarge(e.clean))
		}
		return nil
	}
	if p.files > p.lim.MaxFiles {
		return p.fail(e.raw, newProblem(ErrTooManyFiles, "more than %d files (junk such as __MACOSX and .git not counted); split the capability or remove files", p.lim.MaxFiles))
	}
	if e.size > p.lim.fileMax(e.clean) {
		return p.fail(e.raw, p.lim.fileTooLarge(e.clean))
	}
	p.total += e.size
	if p.total > p.lim.MaxTotalBytes {
		return p.fail(e.raw, p.lim.totalTooLarge())
	}
	return nil
}

func (l Limits) fileMax(clean string) int64 {
	if isSkillMD(clean) {
		return l.MaxSkillMD
	}
	return l.MaxFileBytes
}

func (l Limits) fileTooLarge(clean string) *problem {
	if isSkillMD(clean) {
		return newProblem(ErrFileTooLarge, "SKILL.md may hold at most %s; move long material to references/", size(l.MaxSkillMD))
	}
	return newProblem(ErrFileTooLarge, "a file may hold at most %s", size(l.MaxFileBytes))
}

func (l Limits) totalTooLarge() *problem {
	return newProblem(ErrTooLarge, "the files add up to more than %s, the limit for a capability", size(l.MaxTotalBytes))
}

func (p *planner) collide(raw, path string, file bool) error {
	k := strings.ToLower(path)
	prev, ok := p.seen[k]
	switch {
	case !ok:
		p.seen[k] = node{path: path, file: file}
		return nil
	case prev.path != path:
		return p.fail(raw, newProblem(ErrDuplicate, "%s and %s differ only in case and would be one file on macOS and Windows; rename one", quote(prev.path), quote(path)))
	case prev.file && file:
		return p.fail(raw, newProblem(ErrDuplicate, "%s appears twice; keep one", quote(path)))
	case prev.file != file:
		return p.fail(raw, newProblem(ErrDuplicate, "%s is both a file and a folder; rename one", quote(path)))
	}
	return nil
}

// layout finds the one SKILL.md and the capability root.
func (p *planner) layout() (root, skill string, err error) {
	where := "the archive's"
	if p.kind == KindFolder {
		where = "the folder's"
	}
	var skills []entry
	for _, e := range p.entries {
		if !e.dir && isSkillMD(e.clean) {
			skills = append(skills, e)
		}
	}
	if p.files == 0 {
		detail := "it holds no files"
		if len(p.ignored) > 0 {
			detail += ", only " + list(p.Ignored())
		}
		return "", "", p.failInput(ErrEmpty, "%s", detail)
	}
	switch len(skills) {
	case 0:
		return "", "", p.failInput(ErrNoSkillMD, "%s top level holds %s; a capability needs SKILL.md at the top or inside one top-level folder",
			where, list(p.topLevel("")))
	case 1:
	default:
		paths := make([]string, len(skills))
		for i, e := range skills {
			paths[i] = e.clean
		}
		sort.Strings(paths)
		return "", "", p.failInput(ErrMultipleSkillMD, "found %s; a capability has exactly one, so install each skill on its own", list(paths))
	}
	s := skills[0]
	switch depth(s.clean) {
	case 1:
		return "", s.clean, nil
	case 2:
		root, _, _ = strings.Cut(s.clean, "/")
		if strays := p.topLevel(root); len(strays) > 0 {
			return "", "", p.failInput(ErrLayout, "SKILL.md is inside %s but %s top level also holds %s; put everything inside %s, or SKILL.md at the top",
				quote(root+"/"), where, list(strays), quote(root+"/"))
		}
		return root, s.clean, nil
	}
	return "", "", p.fail(s.raw, newProblem(ErrLayout, "SKILL.md must be at the top or inside one top-level folder, not deeper"))
}

// topLevel lists the input's top-level names (folders with a slash),
// leaving out except.
func (p *planner) topLevel(except string) []string {
	set := map[string]bool{}
	for _, e := range p.entries {
		first, _, more := strings.Cut(e.clean, "/")
		if first == except {
			continue
		}
		if more || e.dir {
			first += "/"
		}
		set[first] = true
	}
	return sorted(set)
}

// Ignored returns the junk seen, sorted.
func (p *planner) Ignored() []string { return sorted(p.ignored) }

func sorted(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// maxListed keeps listings in messages short.
const maxListed = 12

func list(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	n := min(len(names), maxListed)
	q := make([]string, n)
	for i := range n {
		q[i] = quote(names[i])
	}
	s := strings.Join(q, ", ")
	if len(names) > n {
		s += fmt.Sprintf(" and %d more", len(names)-n)
	}
	return s
}

// size renders a byte count for messages.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// write lays the planned entries under root out in s: folders are made,
// each file is written by file with its path relative to root, and the
// skill's own SKILL.md (which may be named in another case) lands as
// SKILL.md. The root's own entry has nothing to write.
func (p *planner) write(s *stager, root, skill string, file func(e entry, rel string) error) error {
	for _, e := range p.entries {
		rel := relTo(root, e.clean)
		if e.clean == skill {
			rel = "SKILL.md"
		}
		if rel == "" {
			continue
		}
		if e.dir {
			if err := s.mkdirs(rel); err != nil {
				return err
			}
			continue
		}
		if err := file(e, rel); err != nil {
			return err
		}
	}
	return nil
}
