package stage

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// stager writes into one staging folder through an os.Root, so no name can
// resolve outside it even if a check upstream were wrong.
type stager struct {
	root        *os.Root
	kind        Kind
	input       string
	lim         Limits
	archiveSize int64 // zips: the whole-archive ratio's denominator
	total       int64 // bytes written so far
	files       []string
	made        map[string]bool // folders created
}

func (s *stager) fail(raw string, pr *problem) error {
	return &Error{Kind: s.kind, Input: s.input, Entry: raw, Err: pr.err, Detail: pr.detail}
}

// mkdirs creates rel and its parents, 0755 whatever the umask.
func (s *stager) mkdirs(rel string) error {
	if rel == "" || s.made[rel] {
		return nil
	}
	if parent, _ := splitLast(rel); parent != "" {
		if err := s.mkdirs(parent); err != nil {
			return err
		}
	}
	name := filepath.FromSlash(rel)
	if err := s.root.Mkdir(name, 0o755); err != nil {
		return fmt.Errorf("stage: %w", err)
	}
	if err := s.root.Chmod(name, 0o755); err != nil {
		return fmt.Errorf("stage: %w", err)
	}
	s.made[rel] = true
	return nil
}

// write copies one file from src to rel, 0644, or 0755 when exec says the
// source's owner could execute it: bundled scripts stay runnable as their
// authors shipped them, while setuid, setgid, sticky and group or other
// write never survive staging. compressed is the entry's compressed size
// for zips (enabling the ratio checks), -1 otherwise.
func (s *stager) write(raw, rel string, src io.Reader, compressed int64, exec bool) error {
	if parent, _ := splitLast(rel); parent != "" {
		if err := s.mkdirs(parent); err != nil {
			return err
		}
	}
	g := &guard{r: src, s: s, raw: raw, rel: rel, max: s.lim.fileMax(rel), compressed: compressed}
	head, eof, err := readUpTo(g, sniffLen)
	if err != nil {
		return s.readErr(raw, err)
	}
	perm := fileMode(exec && rel != "SKILL.md")
	f, err := s.root.OpenFile(filepath.FromSlash(rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("stage: %w", err)
	}
	err = s.fill(f, head, eof, g, raw)
	if err == nil {
		// Chmod, since the umask may have narrowed the mode OpenFile set.
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("stage: %w", cerr)
	}
	if err != nil {
		return err
	}
	if g.n == 0 && rel == "SKILL.md" {
		return s.fail(raw, newProblem(ErrEmpty, "SKILL.md has no content; it needs frontmatter with a name and a description"))
	}
	s.files = append(s.files, rel)
	return nil
}

// fileMode is the mode a staged file gets.
func fileMode(exec bool) os.FileMode {
	if exec {
		return 0o755
	}
	return 0o644
}

// ownerExec reports whether a source mode lets its owner execute the file.
func ownerExec(m os.FileMode) bool { return m.IsRegular() && m.Perm()&0o100 != 0 }

func (s *stager) fill(f *os.File, head []byte, eof bool, g *guard, raw string) error {
	if _, err := f.Write(head); err != nil {
		return fmt.Errorf("stage: %w", err)
	}
	if eof {
		return nil
	}
	// A plain writer (no ReadFrom) so only the guard decides how much is
	// read, and so write failures can be told from read failures.
	w := &fileWriter{f: f}
	if _, err := io.Copy(w, g); err != nil {
		if w.err != nil {
			return fmt.Errorf("stage: %w", w.err)
		}
		return s.readErr(raw, err)
	}
	return nil
}

type fileWriter struct {
	f   *os.File
	err error
}

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}

// readErr turns a failure reading an entry into a rejection.
func (s *stager) readErr(raw string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if s.kind == KindZip {
		return s.fail(raw, newProblem(ErrCorrupt, "%s; download or re-create the archive", zipErrText(err)))
	}
	return fmt.Errorf("%s entry %s: %w", kindWord(s.kind), quote(raw), err)
}

// guard meters one entry as it is read. It never asks its source for more
// than one byte past the tighter of the file and total caps, so a lying
// header cannot make it inflate more than that, and it stops a zip entry (or
// the archive) once it expands past Limits.MaxRatio.
type guard struct {
	r          io.Reader
	s          *stager
	raw        string
	rel        string
	n          int64
	max        int64
	compressed int64
}

func (g *guard) Read(p []byte) (int, error) {
	room := min(g.max-g.n, g.s.lim.MaxTotalBytes-g.s.total) + 1
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	g.s.total += int64(n)
	lim := g.s.lim
	switch {
	case g.n > g.max:
		return n, g.s.fail(g.raw, lim.fileTooLarge(g.rel))
	case g.s.total > lim.MaxTotalBytes:
		return n, g.s.fail(g.raw, lim.totalTooLarge())
	case g.compressed >= 0 && g.n > ratioFloor && float64(g.n) > lim.MaxRatio*float64(max(g.compressed, 1)):
		return n, g.s.fail(g.raw, newProblem(ErrZipBomb, "it expands more than %g times its compressed size of %s", lim.MaxRatio, size(g.compressed)))
	case g.s.archiveSize > 0 && g.s.total > archiveRatioFloor && float64(g.s.total) > lim.MaxRatio*float64(g.s.archiveSize):
		return n, g.s.fail(g.raw, newProblem(ErrZipBomb, "the archive expands more than %g times its size of %s", lim.MaxRatio, size(g.s.archiveSize)))
	}
	return n, err
}
