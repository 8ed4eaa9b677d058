package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestColdCopy(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "prog")
	want := bytes.Repeat([]byte("\x7fELF wrasse "), 10000)
	if err := os.WriteFile(bin, want, 0o755); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	got, err := coldCopy(bin, out)
	if err != nil {
		t.Fatalf("coldCopy: %v", err)
	}
	if got != filepath.Join(out, "prog") {
		t.Errorf("copy at %s, want it in %s", got, out)
	}
	b, err := os.ReadFile(got)
	if err != nil || !bytes.Equal(b, want) {
		t.Fatalf("copy differs from its source (err %v)", err)
	}
	if fi, err := os.Stat(got); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("copy is not executable: %v %v", fi.Mode(), err)
	}
	if _, err := coldCopy(bin, out); err == nil {
		t.Error("a second copy over the first succeeded; want an error (O_EXCL)")
	}
	if _, err := coldCopy(filepath.Join(dir, "missing"), t.TempDir()); err == nil {
		t.Error("copying a missing file succeeded")
	}
}
