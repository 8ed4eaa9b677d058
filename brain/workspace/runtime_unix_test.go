//go:build unix

package workspace

import (
	"errors"
	"fmt"
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

// The runtime folder is chosen from the environment and from session
// folders no sandbox can make or give away, never from a mode: a session
// folder that is not private is an error saying what to do, not a quiet
// move to another folder (one a sandboxed command may have prepared).
func TestChooseRuntime(t *testing.T) {
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
	loose := mk("run-loose", 0o711)
	link := filepath.Join(base, "run-link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(base, "nowhere")
	home := filepath.Join(base, "home")
	state := filepath.Join(home, ".local", "state", "wrasse", "run")
	fallback := filepath.Join(temp, "wrasse-"+strconv.Itoa(os.Getuid()))
	deep := filepath.Join(base, strings.Repeat("d", maxRuntimeDirLen))
	in := func(dir string) Runtime { return Runtime{Dir: filepath.Join(dir, "wrasse"), Session: dir} }
	cases := []struct {
		name    string
		vars    map[string]string
		session string // the login session's folder (/run/user/UID)
		want    Runtime
		wantErr string // "" for none
	}{
		{"private session variable", map[string]string{EnvRuntimeDir: good, "HOME": home}, "", in(good), ""},
		{"session variable open to others", map[string]string{EnvRuntimeDir: open, "HOME": home}, "", in(open), "has mode 0755, not 0700"},
		{"session variable 0711", map[string]string{EnvRuntimeDir: loose, "HOME": home}, good, in(loose), "chmod 700 " + loose},
		{"session variable a link", map[string]string{EnvRuntimeDir: link, "HOME": home}, "", in(link), "is a symbolic link"},
		{"session variable a link: what to do", map[string]string{EnvRuntimeDir: link, "HOME": home}, "", in(link),
			"point XDG_RUNTIME_DIR at the real folder instead (this link leads to " + good + ", which must be yours alone"},
		{"session variable missing", map[string]string{EnvRuntimeDir: missing, "HOME": home}, "", in(missing), "does not exist"},
		{"relative session variable is ignored", map[string]string{EnvRuntimeDir: "run-good", "HOME": home}, "", Runtime{Dir: state}, ""},
		{"unset: the login session's folder", map[string]string{"HOME": home}, good, in(good), ""},
		{"unset: the login session's folder opened", map[string]string{"HOME": home}, open, in(open), "chmod 700 " + open},
		{"unset: no login session folder", map[string]string{"HOME": home}, missing, Runtime{Dir: state}, ""},
		{"unset: the login session's folder a link", map[string]string{"HOME": home}, link, Runtime{Dir: state}, ""},
		{"XDG_STATE_HOME", map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(base, "st")}, "",
			Runtime{Dir: filepath.Join(base, "st", "wrasse", "run")}, ""},
		{"relative XDG_STATE_HOME", map[string]string{"HOME": home, "XDG_STATE_HOME": "st"}, "", Runtime{Dir: state}, ""},
		{"state folder too deep", map[string]string{"XDG_STATE_HOME": deep}, "", Runtime{Dir: fallback}, ""},
		{"no home", nil, "", Runtime{Dir: fallback}, ""},
	}
	if os.Getuid() == 0 {
		theirs := mk("run-theirs", 0o700)
		if err := os.Chown(theirs, otherUID, otherUID); err != nil {
			t.Fatal(err)
		}
		cases = append(cases,
			struct {
				name    string
				vars    map[string]string
				session string
				want    Runtime
				wantErr string
			}{"another user's session variable", map[string]string{EnvRuntimeDir: theirs, "HOME": home}, "", in(theirs), "belongs to user 65534"},
			struct {
				name    string
				vars    map[string]string
				session string
				want    Runtime
				wantErr string
			}{"another user's login session folder", map[string]string{"HOME": home}, theirs, Runtime{Dir: state}, ""})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			getenv := func(k string) string { return c.vars[k] }
			got, err := chooseRuntime(getenv, c.session, temp)
			if got != c.want {
				t.Errorf("chooseRuntime = %+v, want %+v", got, c.want)
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case c.wantErr != "" && (!errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("error %v, want ErrNotPrivate saying %q", err, c.wantErr)
			}
			// Said once, and chmod is never the advice for a link (it
			// changes the folder the link leads to).
			if err != nil && strings.Count(err.Error(), "not private to you") > 1 {
				t.Errorf("error repeats itself: %v", err)
			}
			if err != nil && c.vars[EnvRuntimeDir] == link && strings.Contains(err.Error(), "chmod") {
				t.Errorf("error advises chmod for a link: %v", err)
			}
			// Whatever was chosen is a candidate, so no sandbox reaches it.
			if cands := runtimeCandidates(getenv, c.session, temp); !slices.Contains(cands, got.Dir) {
				t.Errorf("the choice %s is not among the candidates %v", got.Dir, cands)
			}
		})
	}
}

// Every folder any mode could make Wrasse choose is a candidate, whatever
// the modes are now; the temporary folder's only where no state folder
// can be used (protecting it would keep sandboxed commands from creating
// files directly in /tmp).
func TestRuntimeCandidates(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS always uses its per-user temporary folder")
	}
	base := t.TempDir()
	temp := filepath.Join(base, "tmp")
	home := filepath.Join(base, "home")
	xdg := filepath.Join(base, "xdg")
	session := filepath.Join(base, "run-user")
	state := filepath.Join(home, ".local", "state", "wrasse", "run")
	fallback := filepath.Join(temp, "wrasse-"+strconv.Itoa(os.Getuid()))
	for _, c := range []struct {
		name string
		vars map[string]string
		want []string
	}{
		{"session variable", map[string]string{EnvRuntimeDir: xdg, "HOME": home},
			[]string{filepath.Join(xdg, "wrasse"), filepath.Join(session, "wrasse"), state}},
		{"no session variable", map[string]string{"HOME": home}, []string{filepath.Join(session, "wrasse"), state}},
		{"no home", map[string]string{EnvRuntimeDir: xdg}, []string{filepath.Join(xdg, "wrasse"), filepath.Join(session, "wrasse"), fallback}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := runtimeCandidates(func(k string) string { return c.vars[k] }, session, temp)
			if !slices.Equal(got, c.want) {
				t.Errorf("candidates %v, want %v", got, c.want)
			}
		})
	}
}

// A runtime folder in a state folder that does not exist yet is created
// with its parents.
func TestEnsureRuntimeMakesStateParents(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "wrasse", "run")
	if err := (Runtime{Dir: dir}).Ensure(); err != nil {
		t.Fatalf("Ensure: %v", err)
	}
	if err := CheckPrivate(dir, true, 0o700); err != nil {
		t.Fatal(err)
	}
}

// A session folder opened after the choice is closed again by Ensure and
// refused by Check, which changes nothing.
func TestRuntimeKeepsTheSessionFolder(t *testing.T) {
	session := t.TempDir()
	if err := os.Chmod(session, 0o700); err != nil {
		t.Fatal(err)
	}
	rt, err := chooseRuntime(func(k string) string { return map[string]string{EnvRuntimeDir: session}[k] }, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if want := []KeptMode{{Path: session, Mode: 0o700, Dir: true}, {Path: rt.Dir, Mode: 0o700, Dir: true}}; !slices.Equal(rt.KeptModes(), want) {
		t.Errorf("KeptModes %v, want %v", rt.KeptModes(), want)
	}
	if err := rt.Ensure(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(session, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := rt.Check(); !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), "chmod 700 "+session) {
		t.Fatalf("Check of an opened session folder: %v", err)
	}
	if err := rt.Ensure(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(session); fi.Mode().Perm() != 0o700 {
		t.Errorf("the session folder has mode %04o after Ensure", fi.Mode().Perm())
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
	_, dir := useFallback(t)
	rt := Runtime{Dir: dir}
	if err := rt.Ensure(); err != nil {
		t.Fatalf("Ensure: %v", err)
	}
	if err := CheckPrivate(dir, true, 0o700); err != nil {
		t.Fatal(err)
	}
	// Ours but opened up (a sandboxed chmod): closed again.
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := rt.Check(); !errors.Is(err, ErrNotPrivate) {
		t.Fatalf("Check of an opened folder: %v", err)
	}
	if err := rt.Ensure(); err != nil {
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
			err := Runtime{Dir: dir}.Ensure()
			if !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "remove "+dir) ||
				strings.Count(err.Error(), "not private to you") != 1 {
				t.Fatalf("Ensure: %v", err)
			}
			if err := (Runtime{Dir: dir}).Check(); !errors.Is(err, ErrNotPrivate) {
				t.Fatalf("Check: %v", err)
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

// Protected holds every runtime folder candidate of the environment, so
// that no sandbox reads a token in the folder chosen nor plants one where
// a client whose session folder was made unusable would look.
func TestProtectedHoldsEveryRuntimeCandidate(t *testing.T) {
	t.Setenv(EnvRuntimeDir, "/run/test-session")
	t.Setenv("HOME", "/home/test")
	t.Setenv("XDG_STATE_HOME", "")
	noAccess, _ := Workspace{Root: "/w"}.Protected()
	want := []string{"/run/test-session/wrasse", "/home/test/.local/state/wrasse/run"}
	if runtime.GOOS == "linux" {
		want = append(want, fmt.Sprintf("/run/user/%d/wrasse", os.Getuid()))
	}
	for _, dir := range want {
		if !slices.Contains(noAccess, dir) {
			t.Errorf("noAccess %v lacks the runtime folder candidate %s", noAccess, dir)
		}
	}
}

// A workspace root that is a symbolic link is kept by its target: the
// target's mode is put back, and a link changed afterwards does not turn
// the repair to another folder.
func TestKeptModesOfALinkedRoot(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	other := filepath.Join(base, "other")
	for _, d := range []string{real, other} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "ws")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	kept := Workspace{Root: link}.KeptModes()
	if kept[0].Path != real || kept[1].Path != filepath.Join(real, "wrasse.db") {
		t.Fatalf("KeptModes of a linked root: %v", kept)
	}
	// The link now points elsewhere: the list kept at open still names the
	// folder the workspace was opened in.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	got, err := RestoreModes(kept)
	if err != nil || len(got) != 1 || got[0].Path != real {
		t.Fatalf("RestoreModes = %v, %v", got, err)
	}
	for dir, want := range map[string]fs.FileMode{real: 0o700, other: 0o777} {
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != want {
			t.Errorf("%s has mode %04o, want %04o", dir, fi.Mode().Perm(), want)
		}
	}
}
