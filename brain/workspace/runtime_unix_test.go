//go:build unix

package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// otherUID is a user that is not the one running the tests.
const otherUID = 65534

// asRoot skips a test that must give files to another user.
func asRoot(t *testing.T) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
}

func TestRuntimeDirChoice(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS always uses its per-user temporary folder")
	}
	base := t.TempDir()
	temp := filepath.Join(base, "tmp")
	mk := func(name string, mode fs.FileMode) string {
		p := filepath.Join(base, name)
		if err := os.Mkdir(p, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := mk("run-good", 0o700)
	open := mk("run-open", 0o755)
	link := filepath.Join(base, "run-link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	fallback := filepath.Join(temp, "wrasse-"+strconv.Itoa(os.Getuid()))
	// env answers key with the value vars gives it, "" for any other.
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	cases := []struct {
		name, xdg, want string
	}{
		{"private session folder", good, filepath.Join(good, "wrasse")},
		{"unset", "", fallback},
		{"relative", "run-good", fallback},
		{"missing", filepath.Join(base, "nowhere"), fallback},
		{"open to others", open, fallback},
		{"a symbolic link", link, fallback},
	}
	// The login session's folder stands in for an unset variable only.
	if got := runtimeDir(env(nil), good, temp); got != filepath.Join(good, "wrasse") {
		t.Errorf("unset with a session folder: %s", got)
	}
	if got := runtimeDir(env(map[string]string{EnvRuntimeDir: open}), good, temp); got != fallback {
		t.Errorf("an unusable variable with a session folder: %s", got)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := runtimeDir(env(map[string]string{EnvRuntimeDir: c.xdg}), "", temp); got != c.want {
				t.Errorf("runtimeDir = %s, want %s", got, c.want)
			}
		})
	}
	// Without a session folder the user's state folder comes before the
	// temporary one, so that no sandbox has its runtime folder carved out
	// of /tmp; a state folder too deep for a socket name falls back.
	home := filepath.Join(base, "home")
	deep := filepath.Join(base, strings.Repeat("d", maxRuntimeDirLen))
	for _, c := range []struct {
		name string
		vars map[string]string
		want string
	}{
		{"home's state folder", map[string]string{"HOME": home}, filepath.Join(home, ".local", "state", "wrasse", "run")},
		{"XDG_STATE_HOME", map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(base, "st")}, filepath.Join(base, "st", "wrasse", "run")},
		{"relative XDG_STATE_HOME", map[string]string{"HOME": home, "XDG_STATE_HOME": "st"}, filepath.Join(home, ".local", "state", "wrasse", "run")},
		{"too deep", map[string]string{"XDG_STATE_HOME": deep}, fallback},
		{"a session folder wins", map[string]string{"HOME": home, EnvRuntimeDir: good}, filepath.Join(good, "wrasse")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := runtimeDir(env(c.vars), "", temp); got != c.want {
				t.Errorf("runtimeDir = %s, want %s", got, c.want)
			}
		})
	}
	if os.Getuid() == 0 {
		theirs := mk("run-theirs", 0o700)
		if err := os.Chown(theirs, otherUID, otherUID); err != nil {
			t.Fatal(err)
		}
		if got := runtimeDir(env(map[string]string{EnvRuntimeDir: theirs}), "", temp); got != fallback {
			t.Errorf("another user's session folder: %s", got)
		}
	}
}

// A runtime folder in a state folder that does not exist yet is created
// with its parents.
func TestEnsureRuntimeDirMakesStateParents(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "wrasse", "run")
	got, err := ensureRuntimeDir(dir)
	if err != nil || got != dir {
		t.Fatalf("ensureRuntimeDir = %s, %v", got, err)
	}
	if err := CheckPrivate(dir, true, 0o700); err != nil {
		t.Fatal(err)
	}
}

// useFallback gives the test a runtime folder of its own, the fallback
// one (wrasse-UID in a fresh temporary folder), never the user's real one.
func useFallback(t *testing.T) (temp, dir string) {
	t.Helper()
	temp = t.TempDir()
	t.Setenv("TMPDIR", temp)
	return temp, fallbackRuntimeDir(temp)
}

func TestEnsureRuntimeDirCreatesAndRepairs(t *testing.T) {
	_, want := useFallback(t)
	dir, err := ensureRuntimeDir(want)
	if err != nil || dir != want {
		t.Fatalf("EnsureRuntimeDir = %s, %v; want %s", dir, err, want)
	}
	if err := CheckPrivate(dir, true, 0o700); err != nil {
		t.Fatal(err)
	}
	// Ours but opened up (a sandboxed chmod): closed again.
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := checkRuntimeDir(dir); !errors.Is(err, ErrNotPrivate) {
		t.Fatalf("CheckRuntimeDir of an opened folder: %v", err)
	}
	if _, err := ensureRuntimeDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %04o after EnsureRuntimeDir", fi.Mode().Perm())
	}
}

// A folder someone else made first at the fallback's name, or a link
// there, is refused with what to do; nothing is created through it.
func TestEnsureRuntimeDirRefusesImpostors(t *testing.T) {
	cases := []struct {
		name  string
		plant func(t *testing.T, dir string)
		want  string
	}{
		{"another user's folder", func(t *testing.T, dir string) {
			asRoot(t)
			if err := os.Mkdir(dir, 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(dir, otherUID, otherUID); err != nil {
				t.Fatal(err)
			}
		}, "belongs to user 65534"},
		{"a link to another folder", func(t *testing.T, dir string) {
			if err := os.Symlink(t.TempDir(), dir); err != nil {
				t.Fatal(err)
			}
		}, "is a symbolic link"},
		{"a file", func(t *testing.T, dir string) {
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "is not a folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, dir := useFallback(t)
			c.plant(t, dir)
			_, err := ensureRuntimeDir(dir)
			if !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "remove "+dir) {
				t.Fatalf("EnsureRuntimeDir: %v", err)
			}
			if _, err := checkRuntimeDir(dir); !errors.Is(err, ErrNotPrivate) {
				t.Fatalf("CheckRuntimeDir: %v", err)
			}
		})
	}
}

func TestRestoreModes(t *testing.T) {
	ws := Workspace{Root: t.TempDir()}
	for _, f := range []string{ws.Database(), ws.Config()} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(ws.Root, 0o777); err != nil {
		t.Fatal(err)
	}
	got, err := RestoreModes(ws.KeptModes())
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range got {
		paths = append(paths, r.Path)
	}
	if !slices.Equal(paths, []string{ws.Root, ws.Database(), ws.Config()}) {
		t.Fatalf("restored %v", got)
	}
	if got[0].Was != 0o777 || got[0].String() != ws.Root+" had mode 0777; it is 0700 again" {
		t.Errorf("report %q", got[0].String())
	}
	for _, k := range ws.KeptModes() {
		if fi, _ := os.Stat(k.Path); fi.Mode().Perm() != k.Mode {
			t.Errorf("%s: %04o", k.Path, fi.Mode().Perm())
		}
	}
	if again, err := RestoreModes(ws.KeptModes()); err != nil || len(again) != 0 {
		t.Errorf("a second pass changed %v, %v", again, err)
	}

	// Links are not followed, shared sticky folders are not taken over.
	target := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	shared := t.TempDir()
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	got, err = RestoreModes([]KeptMode{{Path: link, Mode: 0o600}, {Path: shared, Mode: 0o700, Dir: true},
		{Path: filepath.Join(shared, "missing"), Mode: 0o600}})
	if err != nil || len(got) != 0 {
		t.Fatalf("RestoreModes changed %v, %v", got, err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target was changed to %04o", fi.Mode().Perm())
	}
}

func TestProtectedHoldsTheRuntimeDir(t *testing.T) {
	dir := RuntimeDir()
	noAccess, _ := Workspace{Root: "/w"}.Protected()
	if !slices.Contains(noAccess, dir) {
		t.Errorf("noAccess %v lacks the runtime folder %s", noAccess, dir)
	}
}
