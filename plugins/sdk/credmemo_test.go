package sdk

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A file with other names found to be no credential file is remembered
// across operations, until something that could make it one happens: it
// gains a name in a credential folder, a folder holding another name of it
// is moved into a credential folder, or a credential folder appears. Each
// step reads the file through the same Env, as a plugin does.
func TestCredentialMemoForgetsWhatCouldMakeACredential(t *testing.T) {
	for _, tc := range []struct {
		name string
		// change makes notes/x.txt (another name of other/plain.txt) a
		// credential after it was read as none, and returns its path.
		change func(t *testing.T, fx fixture) string
	}{
		{"a hard link made in a credential folder", func(t *testing.T, fx fixture) string {
			p := filepath.Join(fx.home, ".password-store", "bank.gpg")
			if err := os.Link(filepath.Join(fx.home, "other", "plain.txt"), p); err != nil {
				t.Fatal(err)
			}
			return p
		}},
		{"a folder holding another name moved into a credential folder", func(t *testing.T, fx fixture) string {
			dir := filepath.Join(fx.home, "stash")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(fx.home, "other", "plain.txt"), filepath.Join(dir, "k.gpg")); err != nil {
				t.Fatal(err)
			}
			// x.txt has a third name now: read it once more as no credential.
			if _, err := readArg(fx.env, "notes/x.txt"); err != nil {
				t.Fatalf("with a third name outside the credential folders: %v", err)
			}
			to := filepath.Join(fx.home, ".password-store", "stash")
			if err := os.Rename(dir, to); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(to, "k.gpg")
		}},
		{"a credential folder made, holding another name", func(t *testing.T, fx fixture) string {
			dir := filepath.Join(fx.home, "gnupg-new")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(fx.home, "other", "plain.txt"), filepath.Join(dir, "key")); err != nil {
				t.Fatal(err)
			}
			if _, err := readArg(fx.env, "notes/x.txt"); err != nil {
				t.Fatalf("with a third name outside the credential folders: %v", err)
			}
			to := filepath.Join(fx.home, ".gnupg")
			if err := os.Rename(dir, to); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(to, "key")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t)
			if err := os.MkdirAll(filepath.Join(fx.home, ".password-store"), 0o700); err != nil {
				t.Fatal(err)
			}
			fx.env.Credentials = []string{filepath.Join(fx.home, ".password-store"), filepath.Join(fx.home, ".gnupg")}
			if err := os.Link(filepath.Join(fx.home, "other", "plain.txt"), filepath.Join(fx.home, "notes", "x.txt")); err != nil {
				t.Skip("hard links unsupported:", err)
			}
			for range 2 { // the second read is the remembered one
				if got, err := readArg(fx.env, "notes/x.txt"); err != nil || got != "plain\n" {
					t.Fatalf("before: %q, %v; want it read", got, err)
				}
			}
			cred := tc.change(t, fx)
			_, err := readArg(fx.env, "notes/x.txt")
			if !errors.Is(err, ErrProtected) {
				t.Fatalf("after %s (%s): %v; want ErrProtected", tc.name, cred, err)
			}
		})
	}
}
