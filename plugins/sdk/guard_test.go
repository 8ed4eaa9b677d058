package sdk

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Files with other names are compared with what the protected folders
// hold: a second name of a log or cache file is refused by OpenArg,
// Permit, CheckArg and the walk, while a file whose other names are all
// outside the protected folders reads as usual. A protected folder too
// big to read whole refuses only the files that have other names.
func TestHardLinksComparedWithProtectedFolders(t *testing.T) {
	tests := []struct {
		name   string
		target string // relative to home: what notes/x.txt is another name of
		max    int    // the guard's bound on what the protected folders hold
		want   string // error text, "" for read
	}{
		{name: "log file", target: "ws/logs/wrasse.log", want: filepath.Join("ws", "logs", "wrasse.log") + ", which no tool"},
		{name: "cache file", target: "ws/.cache/manifests.json", want: filepath.Join("ws", ".cache", "manifests.json") + ", which no tool"},
		{name: "file in a granted folder", target: "other/plain.txt"},
		{name: "file in the readable workspace", target: "ws/brain/identity.md"},
		{name: "protected folders too big", target: "other/plain.txt", max: 3, want: "cannot be told"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			if err := os.Link(filepath.Join(fx.home, filepath.FromSlash(tt.target)), filepath.Join(fx.home, "notes", "x.txt")); err != nil {
				t.Skip("hard links unsupported:", err)
			}
			if tt.max > 0 {
				// Through the guard itself: the bound is a constant.
				g := fx.env.newGuard()
				g.maxInner = tt.max
				info, err := os.Lstat(filepath.Join(fx.home, "notes", "x.txt"))
				if err != nil {
					t.Fatal(err)
				}
				if err := g.checkInfo(info, "notes/x.txt", false); !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("checkInfo: %v; want ErrProtected with %q", err, tt.want)
				}
				one, _ := os.Lstat(filepath.Join(fx.home, "notes", "todo.txt"))
				if err := g.checkInfo(one, "notes/todo.txt", false); err != nil {
					t.Errorf("a file with one name: %v", err)
				}
				return
			}
			got, err := readArg(fx.env, "notes/x.txt")
			_, _, cerr := fx.env.CheckArg("notes/x.txt", false)
			_, perr := fx.env.Permit(filepath.Join(fx.home, "notes", "x.txt"), false)
			walked := walkNames(t, fx.env, "notes")
			if tt.want == "" {
				if err != nil || cerr != nil || perr != nil || !strings.Contains(walked, "x.txt") {
					t.Errorf("a file with two harmless names: OpenArg %q %v, CheckArg %v, Permit %v, walk %s", got, err, cerr, perr, walked)
				}
			} else {
				for what, err := range map[string]error{"OpenArg": err, "CheckArg": cerr, "Permit": perr} {
					if !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), tt.want) {
						t.Errorf("%s: %v; want ErrProtected with %q", what, err, tt.want)
					}
				}
				if strings.Contains(walked, "x.txt") {
					t.Errorf("the walk showed x.txt: %s", walked)
				}
			}
			// A file with one name costs no look into the protected folders
			// and is never refused for them.
			if got, err := readArg(fx.env, "notes/todo.txt"); err != nil || got != "alpha\n" {
				t.Errorf("notes/todo.txt: %q %v", got, err)
			}
		})
	}
}

func walkNames(t *testing.T, env *Env, arg string) string {
	t.Helper()
	d, err := env.OpenDirArg(arg, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var names []string
	if err := d.Walk(func(e *Entry) error { names = append(names, e.Path); return nil }); err != nil {
		t.Fatal(err)
	}
	return strings.Join(names, " ")
}

// A file with other names that is one of the person's credential files
// (Env.Credentials: a file named there, or one at any depth beneath a
// folder named there) is refused by every route, whatever name it has in the granted
// folder; a hard link to anything else reads as usual.
func TestHardLinksComparedWithCredentials(t *testing.T) {
	tests := []struct {
		name   string
		target string // relative to home: what notes/x.txt is another name of
		want   string // error text, "" for read
	}{
		{name: "a credential file named", target: ".aws/credentials", want: filepath.Join(".aws", "credentials") + ", which holds keys or passwords"},
		{name: "a file in a credential folder", target: ".ssh/id_ed25519", want: filepath.Join(".ssh", "id_ed25519") + ", which holds keys or passwords"},
		{name: "a file deeper in a credential folder", target: ".ssh/deeper/kept.txt", want: filepath.Join(".ssh", "deeper", "kept.txt") + ", which holds keys or passwords"},
		{name: "a file beside them", target: "other/plain.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			for _, rel := range []string{".aws/credentials", ".ssh/id_ed25519", ".ssh/deeper/kept.txt"} {
				p := filepath.Join(fx.home, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("PRIVATE KEY "+secret), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			fx.env.Credentials = []string{filepath.Join(fx.home, ".aws", "credentials"), filepath.Join(fx.home, ".ssh"), filepath.Join(fx.home, ".netrc")}
			if err := os.Link(filepath.Join(fx.home, filepath.FromSlash(tt.target)), filepath.Join(fx.home, "notes", "x.txt")); err != nil {
				t.Skip("hard links unsupported:", err)
			}
			got, err := readArg(fx.env, "notes/x.txt")
			_, _, cerr := fx.env.CheckArg("notes/x.txt", false)
			_, perr := fx.env.Permit(filepath.Join(fx.home, "notes", "x.txt"), true)
			walked := walkNames(t, fx.env, "notes")
			if tt.want == "" {
				if err != nil || cerr != nil || perr != nil || !strings.Contains(walked, "x.txt") {
					t.Errorf("OpenArg %q %v, CheckArg %v, Permit %v, walk %s", got, err, cerr, perr, walked)
				}
				return
			}
			for what, err := range map[string]error{"OpenArg": err, "CheckArg": cerr, "Permit": perr} {
				if !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%s: %v; want ErrProtected with %q", what, err, tt.want)
				}
			}
			if strings.Contains(got, "PRIVATE KEY") || strings.Contains(walked, "x.txt") {
				t.Errorf("read %q, walk %s", got, walked)
			}
		})
	}
}
