package sdk

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWalkRead walks a tree and reads every file through the walk,
// as fs_grep does: 4,000 small files in 40 folders, each with one name,
// or each with a second name (the tree copied with cp -al beside it, as
// pnpm stores and link-dest backups do), for which the guard reads the
// protected folders once per walk to tell whether a file is one of theirs.
func BenchmarkWalkRead(b *testing.B) {
	for _, links := range []int{1, 2} {
		b.Run(fmt.Sprintf("links=%d", links), func(b *testing.B) {
			fx := newFixture(b)
			for i := range 20 {
				os.WriteFile(filepath.Join(fx.ws, "logs", fmt.Sprintf("wrasse.%d.log", i)), []byte("old log"), 0o600)
				os.WriteFile(filepath.Join(fx.ws, ".cache", fmt.Sprintf("c%d.json", i)), []byte("{}"), 0o600)
			}
			tree := filepath.Join(fx.home, "tree")
			for d := range 40 {
				dir := filepath.Join(tree, fmt.Sprintf("d%02d", d))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					b.Fatal(err)
				}
				if links > 1 {
					os.MkdirAll(filepath.Join(fx.home, "backup", fmt.Sprintf("d%02d", d)), 0o755)
				}
				for f := range 100 {
					p := filepath.Join(dir, fmt.Sprintf("f%03d.txt", f))
					if err := os.WriteFile(p, []byte("some text to search through\n"), 0o644); err != nil {
						b.Fatal(err)
					}
					if links > 1 {
						if err := os.Link(p, filepath.Join(fx.home, "backup", fmt.Sprintf("d%02d", d), fmt.Sprintf("f%03d.txt", f))); err != nil {
							b.Skip("hard links unsupported:", err)
						}
					}
				}
			}
			buf := make([]byte, 4096)
			b.ResetTimer()
			for b.Loop() {
				dir, err := fx.env.OpenDirArg("tree", false)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				err = dir.Walk(func(e *Entry) error {
					if !e.Type().IsRegular() {
						return nil
					}
					f, err := e.Open()
					if err != nil {
						return err
					}
					_, err = io.ReadFull(f, buf)
					f.Close()
					n++
					if err == io.ErrUnexpectedEOF {
						err = nil
					}
					return err
				})
				dir.Close()
				if err != nil || n != 4000 {
					b.Fatalf("walked %d files: %v", n, err)
				}
			}
		})
	}
}

// BenchmarkCheckInfo is the guard's identity check of one file: with one
// name (every walked file pays this), and the first file with two names
// an operation meets, which reads the protected folders (41 files here).
func BenchmarkCheckInfo(b *testing.B) {
	fx := newFixture(b)
	for i := range 20 {
		os.WriteFile(filepath.Join(fx.ws, "logs", fmt.Sprintf("wrasse.%d.log", i)), []byte("old log"), 0o600)
		os.WriteFile(filepath.Join(fx.ws, ".cache", fmt.Sprintf("c%d.json", i)), []byte("{}"), 0o600)
	}
	one := filepath.Join(fx.home, "notes", "todo.txt")
	two := filepath.Join(fx.home, "other", "plain.txt")
	if err := os.Link(two, filepath.Join(fx.home, "plain-copy.txt")); err != nil {
		b.Skip("hard links unsupported:", err)
	}
	for _, c := range []struct{ name, path string }{{"one name", one}, {"two names, fresh guard", two}} {
		info, err := os.Lstat(c.path)
		if err != nil {
			b.Fatal(err)
		}
		g := fx.env.newGuard()
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if c.path == two {
					g = &guard{noAccess: g.noAccess, readOnly: g.readOnly}
				}
				if err := g.checkInfo(info, c.path, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
