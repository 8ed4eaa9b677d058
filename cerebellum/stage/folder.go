package stage

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

func stageFolder(input, base, parent string, lim Limits, sel selection) (*Staged, error) {
	in, err := os.OpenRoot(input)
	if err != nil {
		return nil, fmt.Errorf("stage: %w", err)
	}
	defer in.Close()
	p, err := planFolder(in, base, lim, sel)
	if err != nil {
		return nil, err
	}
	root, skill, err := p.pick()
	if err != nil {
		return nil, err
	}
	return stageFolderWrite(in, p, root, skill, base, parent, lim)
}

// planFolder walks a folder without following links and checks every entry.
func planFolder(in *os.Root, base string, lim Limits, sel selection) (*planner, error) {
	p := newPlanner(KindFolder, base, lim, sel)
	visit := func(name string, d fs.DirEntry) error {
		clean, dir, skip, err := p.classify(name, false, d.IsDir())
		if err != nil {
			return err
		}
		if skip {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if pr := folderEntryType(in, name, d.Type()); pr != nil {
			return p.fail(name, pr)
		}
		if dir {
			return p.add(entry{raw: name, clean: clean, dir: true})
		}
		info, err := in.Lstat(filepath.FromSlash(name))
		if err != nil {
			return fmt.Errorf("folder entry %s: %w", quote(name), err)
		}
		if pr := folderEntryType(in, name, info.Mode().Type()); pr != nil {
			return p.fail(name, pr)
		}
		if n := linkCount(info); n > 1 {
			return p.fail(name, newProblem(ErrLink, "it is a hard link (one file with %d names, possibly outside the folder); replace it with a copy", n))
		}
		return p.add(entry{raw: name, clean: clean, size: info.Size(), info: info, exec: ownerExec(info.Mode())})
	}
	err := fs.WalkDir(in.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("folder entry %s: %w", quote(name), err)
		}
		if name == "." {
			return nil
		}
		return p.keep(name, visit(name, d))
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

func stageFolderWrite(in *os.Root, p *planner, root, skill, base, parent string, lim Limits) (*Staged, error) {
	st := &Staged{Kind: KindFolder, Root: root, Ignored: p.Ignored()}
	s := &stager{kind: KindFolder, input: base, lim: lim}
	return withStaging(parent, st, s, func(s *stager) error {
		return p.write(s, root, skill, func(e entry, rel string) error { return copyFolderFile(in, s, e, rel) })
	})
}

func copyFolderFile(in *os.Root, s *stager, e entry, rel string) error {
	// Opening through the input's os.Root cannot leave the folder; the
	// SameFile check catches an entry swapped (say for a link) since the walk.
	f, err := in.Open(filepath.FromSlash(e.raw))
	if err != nil {
		return fmt.Errorf("folder entry %s: %w", quote(e.raw), err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("folder entry %s: %w", quote(e.raw), err)
	}
	if !fi.Mode().IsRegular() || !os.SameFile(fi, e.info) {
		return fmt.Errorf("folder entry %s changed while it was being staged; try again", quote(e.raw))
	}
	return s.write(e.raw, rel, f, -1, e.exec)
}

// folderEntryType rejects links and special files without following links.
func folderEntryType(in *os.Root, name string, t fs.FileMode) *problem {
	switch {
	case t&fs.ModeSymlink != 0:
		target, err := in.Readlink(filepath.FromSlash(name))
		if err != nil {
			return newProblem(ErrLink, "it is a symbolic link; replace it with the file it points to")
		}
		return newProblem(ErrLink, "it is a symbolic link to %s; replace it with the file it points to", quote(target))
	case t.IsDir(), t.IsRegular():
		return nil
	}
	return newProblem(ErrSpecialFile, "it is a %s; only files and folders can be installed", typeName(t))
}

// inside reports whether path is dir or lies under it, comparing absolute
// paths with links resolved (path need not exist yet).
func inside(path, dir string) bool {
	rel, err := filepath.Rel(resolve(dir), resolve(path))
	return err == nil && filepath.IsLocal(rel)
}

// resolve makes p absolute and resolves links in its longest existing prefix.
func resolve(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		up := filepath.Dir(cur)
		if up == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = up
	}
}
