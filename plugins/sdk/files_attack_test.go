package sdk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hard link is the same file under another name, and the guard compares
// identities only with the protected paths themselves: wrasse.db and
// config.json are caught under any name, but a file inside a protected
// folder (logs/wrasse.log, .cache/…) is not, because only the folder's
// identity is kept. So a hard link to the log or a cache file in a granted
// folder (a backup made with cp -al, rsync --link-dest, a second checkout)
// is read by OpenArg and walked into by fs_grep, archive_create and
// fs_find, though the same file by its real name is refused.
func TestHardLinkIntoProtectedFolderRefused(t *testing.T) {
	fx := newFixture(t)
	for name, target := range map[string]string{
		"log-copy.txt":   filepath.Join(fx.ws, "logs", "wrasse.log"),
		"cache-copy.txt": filepath.Join(fx.ws, ".cache", "manifests.json"),
	} {
		if err := os.Link(target, filepath.Join(fx.home, "notes", name)); err != nil {
			t.Skip("hard links unsupported:", err)
		}
	}
	for _, arg := range []string{"notes/log-copy.txt", "notes/cache-copy.txt"} {
		if got, err := readArg(fx.env, arg); err == nil || strings.Contains(got, secret) {
			t.Errorf("OpenArg(%q) = %q, %v; want it refused as another name of a protected file", arg, got, err)
		}
	}
	dir, err := fx.env.OpenDirArg("notes", false)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	err = dir.Walk(func(e *Entry) error {
		if e.IsDir() || !e.Type().IsRegular() {
			return nil
		}
		f, err := e.Open()
		if err != nil {
			return nil
		}
		defer f.Close()
		b := make([]byte, 256)
		n, _ := f.Read(b)
		if strings.Contains(string(b[:n]), secret) {
			t.Errorf("Walk opened %s, another name of a file in a protected folder: %q", e.Path, b[:n])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
