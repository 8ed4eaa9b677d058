package stage

import (
	"errors"
	"io"
	"os"
	"testing"
)

// endless yields zeros forever and counts what it was asked for.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.read += int64(len(p))
	return len(p), nil
}

// TestGuardStopsAtCaps: whatever a source claims, the guard reads at most
// one byte past the tighter cap, then fails with the right sentinel.
func TestGuardStopsAtCaps(t *testing.T) {
	cases := []struct {
		name       string
		lim        Limits
		rel        string
		compressed int64
		archive    int64
		want       error
		maxRead    int64
	}{
		{name: "file cap", lim: Limits{MaxFileBytes: 1000}, rel: "assets/a.bin", compressed: -1, want: ErrFileTooLarge, maxRead: 1001},
		{name: "SKILL.md cap", lim: Limits{MaxSkillMD: 300}, rel: "SKILL.md", compressed: -1, want: ErrFileTooLarge, maxRead: 301},
		{name: "total cap", lim: Limits{MaxTotalBytes: 700, MaxFileBytes: 5000}, rel: "a.bin", compressed: -1, want: ErrTooLarge, maxRead: 701},
		{name: "entry ratio", lim: Limits{MaxFileBytes: 8 << 20}, rel: "a.bin", compressed: 100, want: ErrZipBomb, maxRead: ratioFloor + 64<<10},
		{name: "archive ratio", lim: Limits{MaxFileBytes: 10 << 20, MaxTotalBytes: 40 << 20}, rel: "a.bin", compressed: 8 << 20, archive: 1000, want: ErrZipBomb, maxRead: archiveRatioFloor + 64<<10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			s := &stager{root: root, kind: KindZip, input: "x.zip", lim: tc.lim.WithDefaults(), archiveSize: tc.archive, made: map[string]bool{}}
			src := &endless{}
			err = s.write(tc.rel, tc.rel, src, tc.compressed, false)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if src.read > tc.maxRead {
				t.Errorf("read %d bytes, want at most %d", src.read, tc.maxRead)
			}
		})
	}
}

// failing returns some bytes, then an error, as a truncated zip entry does.
type failing struct{ n int }

func (f *failing) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := min(len(p), f.n)
	f.n -= n
	return n, nil
}

// TestWriteReadErrorIsCorrupt: a zip entry failing mid-read is ErrCorrupt
// (not mistaken for the end of the file), and a folder's is an I/O error.
func TestWriteReadErrorIsCorrupt(t *testing.T) {
	for _, n := range []int{10, 10000} {
		root, err := os.OpenRoot(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		s := &stager{root: root, kind: KindZip, input: "x.zip", lim: DefaultLimits(), made: map[string]bool{}}
		if err := s.write("a", "a", &failing{n: n}, 10, false); !errors.Is(err, ErrCorrupt) {
			t.Errorf("n=%d: err = %v, want ErrCorrupt", n, err)
		}
		s.kind = KindFolder
		var se *Error
		if err := s.write("b", "b", &failing{n: n}, -1, false); !errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &se) {
			t.Errorf("n=%d: folder err = %v, want a wrapped io.ErrUnexpectedEOF", n, err)
		}
		root.Close()
	}
}
