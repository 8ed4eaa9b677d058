package sdk

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A credential folder is a store as a whole (the sandbox reads nothing
// beneath it): a file with other names that is a file at any depth below
// one (a pass entry in a sub-folder, a browser profile's saved passwords)
// is refused by every route, naming it.
func TestHardLinksComparedWithFilesDeepInCredentialFolders(t *testing.T) {
	for _, rel := range []string{".password-store/work/bank.gpg", ".mozilla/firefox/p.default/logins.json", ".mozilla/firefox/p.default/a/b/c/d.db"} {
		t.Run(rel, func(t *testing.T) {
			fx := newFixture(t)
			p := filepath.Join(fx.home, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("PRIVATE KEY "+secret), 0o600); err != nil {
				t.Fatal(err)
			}
			fx.env.Credentials = []string{filepath.Join(fx.home, ".password-store"), filepath.Join(fx.home, ".mozilla")}
			if err := os.Link(p, filepath.Join(fx.home, "notes", "x.txt")); err != nil {
				t.Skip("hard links unsupported:", err)
			}
			got, err := readArg(fx.env, "notes/x.txt")
			_, _, cerr := fx.env.CheckArg("notes/x.txt", false)
			_, perr := fx.env.Permit(filepath.Join(fx.home, "notes", "x.txt"), true)
			walked := walkNames(t, fx.env, "notes")
			for what, err := range map[string]error{"OpenArg": err, "CheckArg": cerr, "Permit": perr} {
				if !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), filepath.Base(rel)) {
					t.Errorf("%s: %v; want ErrProtected naming %s", what, err, rel)
				}
			}
			if strings.Contains(got, "PRIVATE KEY") || strings.Contains(walked, "x.txt") {
				t.Errorf("read %q, walk %s", got, walked)
			}
		})
	}
}

// Credential folders holding more than the guard reads refuse a file with
// other names, saying a copy will do, and leave a file with one name be.
func TestHardLinkRefusedWhenCredentialFoldersTooBig(t *testing.T) {
	fx := newFixture(t)
	for _, rel := range []string{"a.gpg", "b.gpg", "sub/c.gpg", "sub/d.gpg"} {
		p := filepath.Join(fx.home, ".password-store", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fx.env.Credentials = []string{filepath.Join(fx.home, ".password-store")}
	if err := os.Link(filepath.Join(fx.home, "other", "plain.txt"), filepath.Join(fx.home, "notes", "x.txt")); err != nil {
		t.Skip("hard links unsupported:", err)
	}
	g := fx.env.newGuard()
	g.maxCreds = 3
	info, err := os.Lstat(filepath.Join(fx.home, "notes", "x.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.checkInfo(info, "notes/x.txt", false); !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), "use a copy") {
		t.Errorf("checkInfo: %v; want ErrProtected saying to use a copy", err)
	}
	one, _ := os.Lstat(filepath.Join(fx.home, "notes", "todo.txt"))
	if err := g.checkInfo(one, "notes/todo.txt", false); err != nil {
		t.Errorf("a file with one name: %v", err)
	}
}

// A credential folder that is itself a symbolic link (~/.password-store
// kept on another disk) is walked where it leads: a hard link to a file
// deep in it is refused, named by the folder's own path.
func TestHardLinkDeepInACredentialFolderThatIsALink(t *testing.T) {
	fx := newFixture(t)
	vault := filepath.Join(fx.home, "vault", "pass")
	p := filepath.Join(vault, "work", "bank.gpg")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("PRIVATE KEY "+secret), 0o600); err != nil {
		t.Fatal(err)
	}
	fx.link(t, vault, ".password-store")
	fx.env.Credentials = []string{filepath.Join(fx.home, ".password-store")}
	if err := os.Link(p, filepath.Join(fx.home, "notes", "x.txt")); err != nil {
		t.Skip("hard links unsupported:", err)
	}
	got, err := readArg(fx.env, "notes/x.txt")
	want := filepath.Join(".password-store", "work", "bank.gpg")
	if !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), want) || strings.Contains(got, "PRIVATE KEY") {
		t.Errorf("OpenArg %q, %v; want ErrProtected naming %s", got, err, want)
	}
}
