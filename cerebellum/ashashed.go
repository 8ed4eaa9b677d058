package cerebellum

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// isCodeFile reports whether p, a slash path in a capability folder, is
// covered by CodeHash: SKILL.md and the plugin's Go sources decide what
// runs and what it declares.
func isCodeFile(p string) bool {
	return p == "SKILL.md" || strings.HasPrefix(p, "plugin/") && path.Ext(p) == ".go"
}

// skipDir reports whether a folder of a capability is never read.
func skipDir(name string) bool { return name == ".git" || name == "node_modules" }

// asHashed returns a copy of plugin c whose FS holds exactly the files its
// CodeHash covers, read once now. Grants are given to that code, and the
// snapshot describes it, but the folder may have changed since it was
// read: the window applies hand edits only when the user asks (Resync),
// and a load in between would run the edited, never granted code with the
// old grants. So the loader gets the bytes that were compared, and a
// folder that differs fails with ErrChangedOnDisk; nothing of it runs.
func asHashed(c *Capability) (*Capability, error) {
	files := fstest.MapFS{}
	code := sha256.New()
	err := fs.WalkDir(c.FS, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			if p != "." && skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		case !isCodeFile(p):
			return nil
		}
		data, err := fs.ReadFile(c.FS, p)
		if err != nil {
			return err
		}
		code.Write([]byte(p))
		code.Write([]byte{0})
		code.Write(data)
		files[p] = &fstest.MapFile{Data: data}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: cannot read its folder: %v", ErrFailed, c.Name, err)
	}
	if hex.EncodeToString(code.Sum(nil))[:16] != c.CodeHash {
		return nil, hint.With(fmt.Errorf("%w: %s's SKILL.md or plugin code changed on disk after Wrasse read it; the change is not applied yet, "+
			"and what runs must be what was read (its permissions were granted to that code): apply the changes (Resync) and use it again", ErrChangedOnDisk, c.Name),
			resyncHint())
	}
	pinned := *c
	pinned.FS = files
	return &pinned, nil
}
