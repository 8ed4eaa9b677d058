package sdk

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// fixture is a granted folder holding a workspace, as the app lays them
// out: Roots are the granted folder and the workspace, the protected
// paths those of brain/workspace.
type fixture struct {
	home, ws string
	env      *Env
}

const secret = "sk-SECRET-KEY"

func newFixture(t testing.TB) fixture {
	t.Helper()
	home := t.TempDir()
	if r, err := filepath.EvalSymlinks(home); err == nil {
		home = r
	}
	ws := filepath.Join(home, "ws")
	files := map[string]string{
		"ws/wrasse.db":                       secret + "\x00db",
		"ws/config.json":                     `{"baseURL":"` + secret + `"}`,
		"ws/logs/wrasse.log":                 "log " + secret,
		"ws/.cache/manifests.json":           "cache " + secret,
		"ws/brain/cerebellum/notes/SKILL.md": "---\nname: notes\n---\n",
		"ws/brain/identity.md":               "identity",
		"notes/todo.txt":                     "alpha\n",
		"other/plain.txt":                    "plain\n",
	}
	for rel, body := range files {
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(ws, "wrasse.db")
	env := &Env{Roots: []string{home, ws}, Workspace: ws,
		NoAccess: []string{db, db + "-wal", db + "-shm", db + "-journal", filepath.Join(ws, "config.json"),
			filepath.Join(ws, ".cache"), filepath.Join(ws, "logs")},
		ReadOnly: []string{filepath.Join(ws, "brain", "cerebellum"), filepath.Join(ws, ".staging"), filepath.Join(ws, ".trash")}}
	return fixture{home: home, ws: ws, env: env}
}

func (f fixture) link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(f.home, name)); err != nil {
		t.Skip("symbolic links unsupported:", err)
	}
}

func readArg(env *Env, arg string) (string, error) {
	f, _, err := env.OpenArg(arg)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}

func TestOpenArg(t *testing.T) {
	fx := newFixture(t)
	fx.link(t, "notes", "rel-link")
	fx.link(t, filepath.Join(fx.home, "notes", "todo.txt"), "abs-link")
	fx.link(t, fx.ws, "ws-link")
	fx.link(t, "/etc", "out-link")
	fx.link(t, filepath.Join(fx.ws, "config.json"), "config-link")
	fx.link(t, "loop-b", "loop-a")
	fx.link(t, "loop-a", "loop-b")
	if err := os.Link(filepath.Join(fx.ws, "wrasse.db"), filepath.Join(fx.home, "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	// An alias of the granted folder outside every root: a path given
	// through it is taken where it leads, a link leading out to it is not.
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(fx.home, alias); err != nil {
		t.Fatal(err)
	}
	fx.link(t, filepath.Join(alias, "notes", "todo.txt"), "via-alias")
	tests := []struct {
		arg  string
		want string // content, or the error text wanted after "!"
	}{
		{"notes/todo.txt", "alpha\n"},
		{filepath.Join(fx.home, "notes", "todo.txt"), "alpha\n"},
		{"rel-link/todo.txt", "alpha\n"},
		{"abs-link", "alpha\n"},
		{"ws-link/brain/identity.md", "identity"},
		{"ws/brain/cerebellum/notes/SKILL.md", "---\nname: notes\n---\n"},
		{"ws/config.json", "!Wrasse's own data"},
		{"ws-link/config.json", "!Wrasse's own data"},
		{"config-link", "!Wrasse's own data"},
		{"ws/logs/wrasse.log", "!Wrasse's own data"},
		{"ws/.cache/manifests.json", "!Wrasse's own data"},
		{"ws/brain/../wrasse.db", "!Wrasse's own data"},
		{"innocent.txt", "!another name of"},
		{"out-link/passwd", "!outside the folders"},
		{"/etc/passwd", "!outside the folders"},
		{"../x", "!outside the folders"},
		{"missing.txt", "!not exist"},
		{"loop-a", "!too many levels"},
		{filepath.Join(alias, "notes", "todo.txt"), "alpha\n"},
		{filepath.Join(alias, "ws", "config.json"), "!Wrasse's own data"},
		{"via-alias", "!outside the folders"},
	}
	for _, tt := range tests {
		got, err := readArg(fx.env, tt.arg)
		if want, ok := strings.CutPrefix(tt.want, "!"); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("OpenArg(%q) = %q, %v; want an error with %q", tt.arg, got, err, want)
			}
			if strings.Contains(got, secret) {
				t.Errorf("OpenArg(%q) read protected content", tt.arg)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("OpenArg(%q) = %q, %v; want %q", tt.arg, got, err, tt.want)
		}
	}
	// Refusals are ToolErrors that errors.Is still matches.
	_, err := readArg(fx.env, "ws/config.json")
	var te *ToolError
	if !errors.As(err, &te) || !errors.Is(err, ErrProtected) {
		t.Errorf("protected: %T %v", err, err)
	}
	if _, err := readArg(fx.env, "/etc/passwd"); !errors.As(err, &te) || !errors.Is(err, ErrOutsideRoots) {
		t.Errorf("outside: %T %v", err, err)
	}
	if _, err := readArg(fx.env, "missing.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	// A folder opens, to Stat.
	f, shown, err := fx.env.OpenArg("notes")
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := f.Stat(); !info.IsDir() || shown != filepath.Join(fx.home, "notes") {
		t.Errorf("notes: %v %s", info, shown)
	}
	f.Close()
}

func TestDefaultFolder(t *testing.T) {
	fx := newFixture(t)
	if got := fx.env.DefaultFolder(); got != fx.home {
		t.Errorf("DefaultFolder = %q, want %q", got, fx.home)
	}
	// The workspace is never where relative paths start.
	onlyWS := &Env{Roots: []string{fx.ws}, Workspace: fx.ws, NoAccess: fx.env.NoAccess}
	if got := onlyWS.DefaultFolder(); got != "" {
		t.Errorf("DefaultFolder with no folder granted = %q", got)
	}
	for _, arg := range []string{"config.json", ".", ""} {
		_, err := readArg(onlyWS, arg)
		var te *ToolError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "no folder is granted") {
			t.Errorf("relative %q with no folder granted: %v", arg, err)
		}
		if _, err := onlyWS.ResolveArg(arg); err == nil || !strings.Contains(err.Error(), "no folder is granted") {
			t.Errorf("ResolveArg(%q) with no folder granted: %v", arg, err)
		}
	}
	// Absolute paths into the workspace still work for what is not protected.
	if got, err := readArg(onlyWS, filepath.Join(fx.ws, "brain", "identity.md")); err != nil || got != "identity" {
		t.Errorf("absolute path into the workspace: %q %v", got, err)
	}
	if p, err := fx.env.ResolveArg("notes"); err != nil || p != filepath.Join(fx.home, "notes") {
		t.Errorf("ResolveArg(notes) = %q, %v", p, err)
	}
}

func TestWrites(t *testing.T) {
	fx := newFixture(t)
	fx.link(t, filepath.Join(fx.ws, "brain", "cerebellum"), "caps-link")
	fx.link(t, fx.ws, "ws-link")
	fx.link(t, "notes/todo.txt", "todo-link")
	if err := os.Link(filepath.Join(fx.ws, "config.json"), filepath.Join(fx.home, "hard.json")); err != nil {
		t.Fatal(err)
	}
	write := func(arg, body string, create bool) error {
		d, name, err := fx.env.ParentArg(arg, create)
		if err != nil {
			return err
		}
		defer d.Close()
		return d.WriteFile(name, []byte(body), 0o644)
	}
	tests := []struct {
		arg     string
		create  bool
		errWant string
		file    string // where the body must land
	}{
		{arg: "new.txt", file: "new.txt"},
		{arg: "a/b/c.txt", create: true, file: "a/b/c.txt"},
		{arg: "x/y.txt", errWant: "not exist"},
		{arg: "todo-link", file: "notes/todo.txt"},
		{arg: "ws/config.json", errWant: "Wrasse's own data"},
		{arg: "ws/wrasse.db-journal", errWant: "Wrasse's own data"},
		{arg: "ws-link/config.json", errWant: "Wrasse's own data"},
		{arg: "hard.json", errWant: "another name of"},
		{arg: "ws/brain/cerebellum/evil/SKILL.md", create: true, errWant: "may read but not change"},
		{arg: "caps-link/evil/SKILL.md", create: true, errWant: "may read but not change"},
		{arg: "caps-link/notes/SKILL.md", errWant: "may read but not change"},
		{arg: "ws/.staging/x", create: true, errWant: "may read but not change"},
		{arg: ".", errWant: "is a folder"},
		{arg: "/tmp/x", errWant: "outside the folders"},
	}
	for _, tt := range tests {
		err := write(tt.arg, "written", tt.create)
		if tt.errWant == "not exist" {
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("write %q: %v; want fs.ErrNotExist", tt.arg, err)
			}
			continue
		}
		if tt.errWant != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errWant) {
				t.Errorf("write %q: %v; want %q", tt.arg, err, tt.errWant)
			}
			continue
		}
		if err != nil {
			t.Errorf("write %q: %v", tt.arg, err)
			continue
		}
		if b, _ := os.ReadFile(filepath.Join(fx.home, filepath.FromSlash(tt.file))); string(b) != "written" {
			t.Errorf("write %q: %s holds %q", tt.arg, tt.file, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(fx.ws, "config.json")); !strings.Contains(string(b), secret) {
		t.Errorf("config.json changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(fx.ws, "brain", "cerebellum", "evil")); err == nil {
		t.Error("a folder was made in brain/cerebellum")
	}
	if info, err := os.Lstat(filepath.Join(fx.home, "todo-link")); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link written through was replaced: %v %v", info, err)
	}
	// An existing file keeps its permissions.
	os.Chmod(filepath.Join(fx.home, "new.txt"), 0o600)
	if err := write("new.txt", "again", false); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(filepath.Join(fx.home, "new.txt")); runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v", info.Mode())
	}
	if left := tempFiles(t, fx.home); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".wrasse-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestDirNeverFollowsLinks(t *testing.T) {
	fx := newFixture(t)
	dest := filepath.Join(fx.home, "dest")
	os.Mkdir(dest, 0o755)
	if err := os.Symlink(fx.ws, filepath.Join(dest, "w")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(fx.home, "notes"), filepath.Join(dest, "n")); err != nil {
		t.Fatal(err)
	}
	d, err := fx.env.OpenDirArg("dest", true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"w/config.json", "n/todo.txt", "n/new.txt", "w/brain/cerebellum/evil/SKILL.md"} {
		if err := d.MkdirAll(filepath.ToSlash(filepath.Dir(name))); !errors.Is(err, ErrLink) {
			t.Errorf("MkdirAll(dir of %s) = %v, want ErrLink", name, err)
		}
		if w, err := d.Create(name, 0o644); !errors.Is(err, ErrLink) {
			t.Errorf("Create(%s) = %v, want ErrLink", name, err)
			if w != nil {
				w.Abort()
			}
		}
		if _, err := d.Open(name); !errors.Is(err, ErrLink) {
			t.Errorf("Open(%s) = %v, want ErrLink", name, err)
		}
		if _, err := d.Check(name, false); !errors.Is(err, ErrLink) {
			t.Errorf("Check(%s) = %v, want ErrLink", name, err)
		}
	}
	if _, err := d.Open("n"); !errors.Is(err, ErrLink) {
		t.Errorf("Open of a link = %v", err)
	}
	if info, err := d.Check("n", true); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Check of a link = %v, %v", info, err)
	}
	for _, name := range []string{"../x", "/abs", "", "a/../../b", "a\x00b"} {
		if _, err := d.Create(name, 0o644); !errors.Is(err, errName) {
			t.Errorf("Create(%q) = %v", name, err)
		}
	}
	// A link at the name is replaced by the new file, never written through.
	w, err := d.Create("n", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("replaced"))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(fx.home, "notes", "todo.txt")); string(b) != "alpha\n" {
		t.Errorf("written through a link: %q", b)
	}
	if err := d.MkdirAll("sub/deeper"); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("sub/deeper/f.txt", []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Abort leaves nothing behind; Abort after Commit is harmless.
	w, err = d.Create("sub/gone.txt", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("x"))
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dest, "sub", "gone.txt")); err == nil {
		t.Error("aborted file exists")
	}
	if left := tempFiles(t, dest); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestWalk(t *testing.T) {
	fx := newFixture(t)
	fx.link(t, fx.ws, "ws-link")
	if err := os.Link(filepath.Join(fx.ws, "wrasse.db"), filepath.Join(fx.home, "other", "db-copy")); err != nil {
		t.Fatal(err)
	}
	d, err := fx.env.OpenDirArg(".", false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var seen []string
	err = d.Walk(func(e *Entry) error {
		p := e.Path
		if e.IsDir() {
			p += "/"
		}
		if e.Type()&fs.ModeSymlink != 0 {
			target, _ := e.Readlink()
			p += " -> " + target
		}
		seen = append(seen, p)
		if e.Type().IsRegular() {
			f, err := e.Open()
			if err != nil {
				t.Errorf("open %s: %v", e.Path, err)
				return nil
			}
			b, _ := io.ReadAll(f)
			f.Close()
			if strings.Contains(string(b), secret) {
				t.Errorf("walk read protected content through %s", e.Path)
			}
		}
		if e.Path == "notes" {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"notes/", "other/", "other/plain.txt", "ws/", "ws/.cache", "ws-link -> " + fx.ws,
		"ws/brain/", "ws/brain/cerebellum/", "ws/brain/cerebellum/notes/", "ws/brain/cerebellum/notes/SKILL.md", "ws/brain/identity.md"}
	want = slices.DeleteFunc(want, func(s string) bool { return s == "ws/.cache" })
	for _, w := range want {
		if !slices.Contains(seen, w) {
			t.Errorf("walk lacks %q: %v", w, seen)
		}
	}
	for _, s := range seen {
		if strings.Contains(s, "wrasse.db") || strings.Contains(s, "config.json") || strings.Contains(s, "logs") ||
			strings.Contains(s, ".cache") || strings.Contains(s, "db-copy") || strings.HasPrefix(s, "notes/t") || strings.HasPrefix(s, "ws-link/") {
			t.Errorf("walk showed %q", s)
		}
	}
	// SkipAll stops at once.
	n := 0
	d.Walk(func(e *Entry) error { n++; return fs.SkipAll })
	if n != 1 {
		t.Errorf("SkipAll: %d calls", n)
	}
}

func TestSplitName(t *testing.T) {
	for name, want := range map[string]string{
		"a": "a", "a/b": "a|b", "./a//b/": "a|b", ".": "", "./": "",
		"..": "!", "a/../b": "!", "/a": "!", "": "!", "a\x00": "!",
	} {
		got, err := splitName(name)
		if want == "!" {
			if err == nil {
				t.Errorf("splitName(%q) = %v; want an error", name, got)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != want {
			t.Errorf("splitName(%q) = %v, %v; want %q", name, got, err, want)
		}
	}
}

// With no folder granted a refusal says so and what to do, whatever the
// path, instead of naming the workspace (a built-in's only root then) as
// the folder to use; with folders granted it names them, never the
// workspace. On main fs_read /abs/path said "… is outside the folders
// you may use (<workspace>)".
func TestRefusalSaysNoFolderIsGranted(t *testing.T) {
	fx := newFixture(t)
	onlyWS := &Env{Roots: []string{fx.ws}, Workspace: fx.ws, NoAccess: fx.env.NoAccess, ReadOnly: fx.env.ReadOnly}
	const none = "no folder is granted: ask the user to grant one in Settings → Folders"
	outside := filepath.Join(fx.home, "notes", "todo.txt")
	tests := []struct {
		name string
		env  *Env
		op   func(*Env) error
		want string
	}{
		{"read outside, workspace only", onlyWS, func(e *Env) error { _, err := readArg(e, outside); return err }, none},
		{"read /etc, workspace only", onlyWS, func(e *Env) error { _, err := readArg(e, "/etc/passwd"); return err }, none},
		{"write outside, workspace only", onlyWS, func(e *Env) error { _, _, err := e.ParentArg(outside, false); return err }, none},
		{"list outside, workspace only", onlyWS, func(e *Env) error { _, err := e.OpenDirArg(fx.home, false); return err }, none},
		{"resolve outside, workspace only", onlyWS, func(e *Env) error { _, err := e.ResolveArg(outside); return err }, none},
		{"relative, workspace only", onlyWS, func(e *Env) error { _, err := readArg(e, "notes/todo.txt"); return err }, "no folder is granted, so notes/todo.txt has no folder to start from: ask the user to grant one in Settings → Folders"},
		{"no roots at all", &Env{}, func(e *Env) error { _, err := readArg(e, outside); return err }, none},
		{"no roots, relative", &Env{}, func(e *Env) error { _, err := readArg(e, ""); return err }, "no folder is granted, so . has no folder"},
		{"a folder granted", fx.env, func(e *Env) error { _, err := readArg(e, "/etc/passwd"); return err }, "/etc/passwd is outside the folders you may use (" + fx.home + "); use a path inside them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.op(tt.env)
			var te *ToolError
			if !errors.As(err, &te) || !errors.Is(err, ErrOutsideRoots) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("%v; want a ToolError matching ErrOutsideRoots with %q", err, tt.want)
			}
			if strings.Contains(err.Error(), fx.ws) {
				t.Errorf("the refusal names the workspace as a folder to use: %v", err)
			}
		})
	}
}

// Dir.Remove takes away a file or an empty folder through the handle of
// the folder holding it, under the rules for writing: a link at the name
// goes itself (its target stays), one on the way refuses, and protected
// paths are refused.
func TestDirRemove(t *testing.T) {
	fx := newFixture(t)
	for _, p := range []string{"d/empty", "d/full"} {
		os.MkdirAll(filepath.Join(fx.home, filepath.FromSlash(p)), 0o755)
	}
	os.WriteFile(filepath.Join(fx.home, "d", "f.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(fx.home, "d", "full", "g.txt"), []byte("x"), 0o644)
	fx.link(t, filepath.Join(fx.home, "notes", "todo.txt"), "d/link")
	fx.link(t, filepath.Join(fx.home, "notes"), "d/dirlink")
	d, err := fx.env.OpenDirArg(".", true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tests := []struct {
		name string
		want error // nil: removed
		gone string
	}{
		{"d/f.txt", nil, "d/f.txt"},
		{"d/empty", nil, "d/empty"},
		{"d/link", nil, "d/link"},
		{"d/full", fs.ErrExist, ""},
		{"d/dirlink/todo.txt", ErrLink, ""},
		{"d/missing", fs.ErrNotExist, ""},
		{"ws/brain/cerebellum/notes/SKILL.md", ErrProtected, ""},
		{"ws/config.json", ErrProtected, ""},
	}
	for _, tt := range tests {
		err := d.Remove(tt.name)
		switch {
		case tt.want == nil && err != nil:
			t.Errorf("Remove(%s): %v", tt.name, err)
		case tt.want == fs.ErrExist && err == nil:
			t.Errorf("Remove(%s) removed a folder that holds something", tt.name)
		case tt.want != nil && tt.want != fs.ErrExist && !errors.Is(err, tt.want):
			t.Errorf("Remove(%s) = %v; want %v", tt.name, err, tt.want)
		}
		if tt.gone != "" {
			if _, err := os.Lstat(filepath.Join(fx.home, filepath.FromSlash(tt.gone))); err == nil {
				t.Errorf("%s is still there", tt.gone)
			}
		}
	}
	for _, p := range []string{"notes/todo.txt", "d/full/g.txt", "ws/config.json", "ws/brain/cerebellum/notes/SKILL.md"} {
		if _, err := os.Stat(filepath.Join(fx.home, filepath.FromSlash(p))); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// A write refused because the path reaches a file tools may read but not
// change names the path the tool gave and, when a link led elsewhere, the
// file it reaches, not the protected folder twice. With the workspace
// read-only as the app has it, fs_write through a link to
// ws/brain/identity.md said "ws is inside ws, which tools may read but
// not change".
func TestReadOnlyRefusalNamesPathAndTarget(t *testing.T) {
	fx := newFixture(t)
	fx.env.ReadOnly = append(fx.env.ReadOnly, fx.ws)
	fx.link(t, filepath.Join(fx.ws, "brain", "identity.md"), "id-link")
	fx.link(t, fx.ws, "ws-link")
	fx.link(t, filepath.Join(fx.ws, "brain", "cerebellum"), "caps-link")
	fx.link(t, filepath.Join(fx.ws, "config.json"), "cfg-link")
	ws := fx.ws
	tests := []struct {
		arg       string
		want      []string
		notWanted string
	}{
		{arg: "id-link", want: []string{
			filepath.Join(fx.home, "id-link") + " leads to " + filepath.Join(ws, "brain", "identity.md") + " (through a link)",
			"inside " + ws + ", which tools may read but not change"}},
		{arg: "cfg-link", want: []string{
			filepath.Join(fx.home, "cfg-link") + " leads to " + filepath.Join(ws, "config.json") + " (through a link)"}},
		{arg: "ws-link/brain/identity.md", want: []string{
			filepath.Join(fx.home, "ws-link", "brain", "identity.md") + " leads to " + filepath.Join(ws, "brain", "identity.md") + " (through a link)",
			"may read but not change"}},
		{arg: "caps-link/notes/SKILL.md", want: []string{
			filepath.Join(fx.home, "caps-link", "notes", "SKILL.md") + " leads to ",
			"(through a link)", "may read but not change"}},
		{arg: "ws/brain/identity.md", want: []string{
			filepath.Join(ws, "brain", "identity.md") + " is inside " + ws + ", which tools may read but not change"},
			notWanted: "through a link"},
	}
	// A refusal met on a folder on the way names the file it would reach.
	fx2 := newFixture(t)
	fx2.link(t, filepath.Join(fx2.ws, "brain"), "brain-link")
	caps := filepath.Join(fx2.ws, "brain", "cerebellum")
	for _, tt := range []struct {
		arg  string
		want string
	}{
		{"ws/brain/cerebellum/evil/SKILL.md", filepath.Join(caps, "evil", "SKILL.md") + " is inside " + caps + ", which tools may read but not change"},
		{"brain-link/cerebellum/evil/SKILL.md", filepath.Join(fx2.home, "brain-link", "cerebellum", "evil", "SKILL.md") + " leads to " +
			filepath.Join(caps, "evil", "SKILL.md") + " (through a link), which is inside " + caps},
		{"ws/logs/new.log", filepath.Join(fx2.ws, "logs", "new.log") + " is Wrasse's own data"},
	} {
		_, _, err := fx2.env.ParentArg(tt.arg, true)
		if !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParentArg(%s, create) = %v, want %q", tt.arg, err, tt.want)
		}
	}
	for _, tt := range tests {
		_, _, err := fx.env.ParentArg(tt.arg, false)
		if !errors.Is(err, ErrProtected) {
			t.Errorf("ParentArg(%s) = %v, want ErrProtected", tt.arg, err)
			continue
		}
		msg := err.Error()
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("ParentArg(%s): %q lacks %q", tt.arg, msg, w)
			}
		}
		if tt.notWanted != "" && strings.Contains(msg, tt.notWanted) {
			t.Errorf("ParentArg(%s): %q says %q", tt.arg, msg, tt.notWanted)
		}
		if strings.Contains(msg, ws+" is inside "+ws) {
			t.Errorf("ParentArg(%s): %q names the folder twice", tt.arg, msg)
		}
	}
	// Permit says the same.
	if _, err := fx.env.Permit(filepath.Join(fx.home, "id-link"), true); err == nil ||
		!strings.Contains(err.Error(), "id-link leads to "+filepath.Join(ws, "brain", "identity.md")+" (through a link)") {
		t.Errorf("Permit(id-link) = %v", err)
	}
}

// A file swapped for a link leading out of the folder between the look
// and the open is refused with ErrLink and words saying so, not os.Root's
// "path escapes from parent".
func TestOpenLeafLinkOutsideIsWorded(t *testing.T) {
	fx := newFixture(t)
	d, err := fx.env.OpenDirArg("notes", false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tests := []struct {
		name, target string
	}{
		{"abs", filepath.Join(fx.home, "other", "plain.txt")},
		{"rel", "../other/plain.txt"},
	}
	for _, tt := range tests {
		p := filepath.Join(fx.home, "notes", tt.name)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := d.look(tt.name, false)
		if err != nil || info == nil {
			t.Fatalf("look %s: %v %v", tt.name, info, err)
		}
		os.Remove(p)
		if err := os.Symlink(tt.target, p); err != nil {
			t.Skip("symbolic links unsupported:", err)
		}
		f, err := d.openLeaf(tt.name, info)
		if err == nil {
			f.Close()
			t.Fatalf("%s: opened through a link", tt.name)
		}
		msg := err.Error()
		if !errors.Is(err, ErrLink) || !strings.Contains(msg, p) || !strings.Contains(msg, "link leading outside the folder") || strings.Contains(msg, "escapes from parent") {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
