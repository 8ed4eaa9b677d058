package sdk

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// flipper swaps the link name between two targets as fast as it can, the
// way a background process started by a sandboxed command would: each
// swap renames a fresh link over the old one, so name always exists.
func flipper(t *testing.T, name string, targets ...string) (stop func()) {
	t.Helper()
	var done atomic.Bool
	var wg sync.WaitGroup
	tmp := name + ".flip"
	if err := os.Symlink(targets[0], name); err != nil {
		t.Skip("symbolic links unsupported:", err)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !done.Load(); i++ {
			os.Remove(tmp)
			if os.Symlink(targets[i%len(targets)], tmp) == nil {
				os.Rename(tmp, name)
			}
		}
	}()
	return func() { done.Store(true); wg.Wait() }
}

// The check and the open are one: with a link flipped between a harmless
// folder and the workspace, nothing protected is ever read or written.
func TestFilesUnderSymlinkFlips(t *testing.T) {
	fx := newFixture(t)
	decoy := filepath.Join(fx.home, "decoy")
	os.MkdirAll(filepath.Join(decoy, "caps", "evil"), 0o755)
	for _, n := range []string{"config.json", "wrasse.db"} {
		os.WriteFile(filepath.Join(decoy, n), []byte("harmless"), 0o644)
	}
	flip := filepath.Join(fx.home, "flip")
	stop := flipper(t, flip, decoy, fx.ws)
	defer stop()
	caps := filepath.Join(fx.home, "caps")
	stopCaps := flipper(t, caps, filepath.Join(decoy, "caps"), filepath.Join(fx.ws, "brain", "cerebellum"))
	defer stopCaps()

	const rounds = 200
	reads, writes := 0, 0
	for range rounds {
		for _, arg := range []string{"flip/config.json", "flip/wrasse.db"} {
			got, err := readArg(fx.env, arg)
			if strings.Contains(got, secret) {
				t.Fatalf("OpenArg(%s) returned protected content", arg)
			}
			if err == nil {
				reads++
			}
		}
		if d, name, err := fx.env.ParentArg("flip/config.json", false); err == nil {
			if d.WriteFile(name, []byte("{}"), 0o644) == nil {
				writes++
			}
			d.Close()
		}
		if d, name, err := fx.env.ParentArg("caps/evil/SKILL.md", true); err == nil {
			d.WriteFile(name, []byte("planted"), 0o644)
			d.Close()
		}
		if d, err := fx.env.OpenDirArg("flip", false); err == nil {
			d.Walk(func(e *Entry) error {
				if e.Type().IsRegular() {
					if f, err := e.Open(); err == nil {
						b := make([]byte, 64)
						n, _ := f.Read(b)
						f.Close()
						if strings.Contains(string(b[:n]), secret) {
							t.Errorf("Walk opened protected content at %s", e.Path)
						}
					}
				}
				return nil
			})
			d.Close()
		}
	}
	stop()
	stopCaps()
	if b, _ := os.ReadFile(filepath.Join(fx.ws, "config.json")); !strings.Contains(string(b), secret) {
		t.Errorf("config.json was rewritten: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(fx.ws, "brain", "cerebellum", "evil")); err == nil {
		t.Error("a capability folder was planted in brain/cerebellum")
	}
	// The flips did not make the tools useless: the harmless side works.
	if reads == 0 || writes == 0 {
		t.Errorf("%d reads and %d writes of the harmless files succeeded in %d rounds", reads, writes, rounds)
	}
	filepath.WalkDir(fx.ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".wrasse-") {
			t.Errorf("temporary file in the workspace: %s", p)
		}
		return nil
	})
}
