//go:build unix

package assistant

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// attachedFile checks a file's other names (hard links to a key) on what
// os.Stat finds at its path, and openAttached then opens the path again:
// whatever stands there between the two is what is read, and its identity
// is what the chip records. A program that can write in the folder the
// person attaches from swaps a hard link to ~/.ssh/id_ed25519 in after the
// check, by renaming the file over, or by renaming whole folders, which
// leaves the key's ctime as it was, so the same swap at the send passes
// the chip's identity check too. The window runs the two steps back to
// back (ReadAttachment, and attachedFiles at the send); here they are run
// one after the other with the swap between, as a racing program would
// land it. The fix: check the other names of the file opened (its fstat),
// not of the path.
func TestAttachOtherNamesCheckedOnWhatIsOpened(t *testing.T) {
	tests := []struct {
		name string
		// plant makes the harmless file and returns its path and a swap
		// that puts a hard link to key at that path.
		plant func(t *testing.T, home, key string) (string, func())
	}{
		{"the file renamed over", func(t *testing.T, home, key string) (string, func()) {
			doc := write(t, filepath.Join(home, "Downloads", "invoice.txt"), "harmless invoice text")
			staged := mkHardLink(t, key, filepath.Join(home, "Downloads", ".staged"))
			return doc, func() {
				if err := os.Rename(staged, doc); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"its folder renamed over", func(t *testing.T, home, key string) (string, func()) {
			doc := write(t, filepath.Join(home, "Downloads", "archive", "invoice.txt"), "harmless invoice text")
			mkHardLink(t, key, filepath.Join(home, "Downloads", ".staged", "invoice.txt"))
			return doc, func() {
				dir := filepath.Dir(doc)
				if err := os.Rename(dir, dir+".old"); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(filepath.Join(home, "Downloads", ".staged"), dir); err != nil {
					t.Fatal(err)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _, home := attackHome(t)
			doc, swap := tt.plant(t, home, sshKey(home))
			af, err := a.attachedFile(doc)
			if err != nil {
				t.Fatalf("the harmless file before the swap: %v", err)
			}
			swap()
			f, err := a.openAttached(af, doc)
			if err != nil {
				if !strings.Contains(err.Error(), "keys or passwords") && !strings.Contains(err.Error(), "hard link") {
					t.Errorf("opening %s, now a hard link to the key: %v; want it refused as another name of a key", doc, err)
				}
				return
			}
			defer f.Close()
			b, _ := io.ReadAll(f)
			if strings.Contains(string(b), "PRIVATE KEY") {
				t.Errorf("%s passed the check as a harmless file, was swapped for a hard link to ~/.ssh/id_ed25519, and the open read the key: %q", doc, b)
			}
		})
	}
}
