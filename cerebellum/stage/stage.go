package stage

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Kind is the shape of a dropped input.
type Kind string

const (
	KindSkillFile Kind = "skill-file" // a lone *.md file, staged as SKILL.md
	KindFolder    Kind = "folder"
	KindZip       Kind = "zip" // *.zip or *.skill
)

// Staged is a staging folder ready for validation.
type Staged struct {
	Dir     string   // the staging folder holding the capability root's files (SKILL.md at its top)
	Kind    Kind     // what the input was
	Root    string   // where SKILL.md was found inside the input ("" = top, or the single top-level folder name)
	Files   []string // slash paths relative to Dir of the files copied, sorted
	Ignored []string // junk skipped, as named in the input (folders end in "/"), sorted
}

// Stage copies or extracts input into a new folder created inside parent
// (the workspace's staging area, created if missing) and returns it. Every
// entry is checked before anything is written; on any error nothing remains
// in parent. The caller owns Dir: it renames it into place or removes it.
//
// The kind is decided by os.Stat of input (a symlink given as the input
// itself is followed; links inside it never are): a folder; a *.zip or
// *.skill file (any case); a *.md file (any case). Rejections are *Error
// values wrapping one sentinel of errors.go; I/O failures are wrapped
// *fs.PathError values.
func Stage(input, parent string, lim Limits) (*Staged, error) {
	lim = lim.WithDefaults()
	kind, fi, err := kindOf(input)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(input)
	if kind == KindFolder && inside(parent, input) {
		return nil, &Error{Kind: kind, Input: base, Err: ErrUnsupportedInput, Detail: "it holds the staging area " + quote(parent) + "; drop the capability folder itself"}
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("stage: create staging area: %w", err)
	}
	switch kind {
	case KindFolder:
		return stageFolder(input, base, parent, lim, selection{})
	case KindZip:
		return stageZip(input, base, fi.Size(), parent, lim, selection{})
	default:
		return stageSkillFile(input, base, fi.Size(), parent, lim)
	}
}

// kindOf decides an input's kind by os.Stat (following a link given as the
// input itself) and its extension.
func kindOf(input string) (Kind, os.FileInfo, error) {
	base := filepath.Base(input)
	fi, err := os.Stat(input)
	if err != nil {
		return "", nil, fmt.Errorf("stage %s: %w", quote(input), err)
	}
	switch {
	case fi.IsDir():
		return KindFolder, fi, nil
	case !fi.Mode().IsRegular():
		// Never open it: a FIFO would block.
		return "", nil, &Error{Input: base, Err: ErrSpecialFile, Detail: "it is a " + typeName(fi.Mode()) + "; drop a SKILL.md file, a capability folder or a .zip archive"}
	}
	switch strings.ToLower(filepath.Ext(input)) {
	case ".md":
		return KindSkillFile, fi, nil
	case ".zip", ".skill":
		return KindZip, fi, nil
	}
	return "", nil, unsupported(input, base)
}

func unsupported(input, base string) error {
	detail := "drop a SKILL.md (.md) file, a capability folder, or a .zip/.skill archive"
	if d := describeFormat(readHead(input)); d != "" {
		if strings.HasSuffix(d, "zip archive") {
			detail = d + "; rename it to end in .zip"
		} else {
			detail = d + "; re-pack it as a .zip"
		}
	}
	return &Error{Input: base, Err: ErrUnsupportedInput, Detail: detail}
}

// readHead returns up to sniffLen bytes of a file, or nil.
func readHead(name string) []byte {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	head, _, _ := readUpTo(f, sniffLen)
	return head
}

// readUpTo reads until n bytes or the end. Unlike io.ReadFull it keeps the
// source's own error (a truncated zip entry says io.ErrUnexpectedEOF) apart
// from reaching the end (eof).
func readUpTo(r io.Reader, n int) (head []byte, eof bool, err error) {
	buf := make([]byte, n)
	got := 0
	for got < n {
		m, err := r.Read(buf[got:])
		got += m
		if err == io.EOF {
			return buf[:got], true, nil
		}
		if err != nil {
			return buf[:got], false, err
		}
	}
	return buf, false, nil
}

// withStaging creates the staging folder, runs write into it, and removes
// the folder again unless write succeeds (even if it panics).
func withStaging(parent string, st *Staged, s *stager, write func(*stager) error) (_ *Staged, err error) {
	dir, err := os.MkdirTemp(parent, "stage-*")
	if err != nil {
		return nil, fmt.Errorf("stage: create staging folder: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(dir)
		}
	}()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("stage: open staging folder: %w", err)
	}
	s.root = root
	s.made = map[string]bool{}
	err = write(s)
	if cerr := root.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("stage: close staging folder: %w", cerr)
	}
	if err == nil {
		// MkdirTemp makes it 0700; the lead renames it into place as is.
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		return nil, err
	}
	ok = true
	st.Dir = dir
	st.Files = s.files
	sort.Strings(st.Files)
	return st, nil
}

// relTo maps a clean input path to its path in the staging folder ("" for
// the root itself).
func relTo(root, clean string) string {
	if root == "" {
		return clean
	}
	if clean == root {
		return ""
	}
	return strings.TrimPrefix(clean, root+"/")
}
