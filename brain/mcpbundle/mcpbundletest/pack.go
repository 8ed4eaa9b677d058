// Package mcpbundletest builds MCP bundles for tests: a folder zipped as
// mcpb pack does (manifest.json at the top, modes kept).
package mcpbundletest

import (
	"archive/zip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Echo is the folder of the echo bundle: a small Node MCP server with a
// bundled node_modules dependency, user_config with a sensitive API key,
// a string default and a number with a range.
func Echo() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "echo-bundle")
}

// Pack zips dir into a new file named name in a temporary folder and
// returns its path; edit, when set, may change manifest.json's bytes.
func Pack(t testing.TB, dir, name string, edit func([]byte) []byte) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		h.Name, h.Method = filepath.ToSlash(rel), zip.Deflate
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "manifest.json" && edit != nil {
			data = edit(data)
		}
		_, err = w.Write(data)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Zip writes the named files (slash paths to contents) as a zip archive
// and returns its path, for hostile archives a folder cannot hold.
func Zip(t testing.TB, name string, files []File) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range files {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate}
		h.SetMode(e.Mode)
		if e.Mode == 0 {
			h.SetMode(0o644)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, e.Body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// File is one entry of Zip.
type File struct {
	Name string
	Body string
	Mode fs.FileMode
}
