//go:build linux

package assistant

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// A bind mount of a credential store (~/.aws bound at /mnt/share, as a
// container setup or an fstab entry does) has no link to resolve and no
// second name to count: a README.txt in a downloaded archive linking to
// /mnt/share/credentials is a link whose target is a credential file,
// yet it is attached and read. Run as root in a private mount namespace on a locked thread (the
// host's mounts are untouched); skipped elsewhere. The fix: compare the
// real path's folders' identities (dev, ino) with the stores as stat'ed
// (a bind mount keeps them), not only their spellings.
func TestAttackAttachBindMountOfCredentialStore(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root for a bind mount")
	}
	a, _, home := attackHome(t)
	write(t, filepath.Join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = TOPSECRET\n")
	share := filepath.Join(t.TempDir(), "share")
	if err := os.MkdirAll(share, 0o700); err != nil {
		t.Fatal(err)
	}
	readme := mkLink(t, filepath.Join(share, "credentials"), filepath.Join(home, "Downloads", "repo", "README.txt"))
	done := make(chan error, 1)
	go func() {
		// The thread is not unlocked: it ends with the goroutine, and
		// the namespace with it.
		runtime.LockOSThread()
		if err := syscall.Unshare(syscall.CLONE_NEWNS); err != nil {
			done <- fmt.Errorf("skip: unshare: %w", err)
			return
		}
		if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
			done <- fmt.Errorf("skip: private mounts: %w", err)
			return
		}
		if err := syscall.Mount(filepath.Join(home, ".aws"), share, "", syscall.MS_BIND, ""); err != nil {
			done <- fmt.Errorf("skip: bind: %w", err)
			return
		}
		f, err := a.ReadAttachment(readme)
		syscall.Unmount(share, 0)
		if err == nil && strings.Contains(f.Text, "TOPSECRET") {
			done <- fmt.Errorf("ReadAttachment(%s), a link to %s with ~/.aws bind-mounted there, read it: %q", readme, filepath.Join(share, "credentials"), f.Text)
			return
		}
		done <- nil
	}()
	if err := <-done; err != nil {
		if strings.HasPrefix(err.Error(), "skip: ") {
			t.Skip(err)
		}
		t.Error(err)
	}
}

// BenchmarkAttachHardLinkedFile is the cost of attaching a file with a
// second name when a credential folder (~/.var/app, a Flatpak home; or
// ~/.password-store, ~/snap) holds many entries: sameAsCredential lists
// and stats every entry of every credential folder on each attach, and
// again when the message is sent.
func BenchmarkAttachHardLinkedFile(b *testing.B) {
	for _, n := range []int{1000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			home := b.TempDir()
			b.Setenv("HOME", home)
			dir := filepath.Join(home, ".password-store")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("site%d.gpg", i)), nil, 0o600); err != nil {
					b.Fatal(err)
				}
			}
			doc := filepath.Join(home, "doc.txt")
			if err := os.WriteFile(doc, []byte("text"), 0o600); err != nil {
				b.Fatal(err)
			}
			if err := os.Link(doc, filepath.Join(home, "doc2.txt")); err != nil {
				b.Skip(err)
			}
			a := &App{}
			a.opts.Home = home
			fi, err := os.Stat(doc)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if cred, err := a.sameAsCredential(fi); cred != "" || err != nil {
					b.Fatal("doc.txt taken for a credential")
				}
			}
		})
	}
}
