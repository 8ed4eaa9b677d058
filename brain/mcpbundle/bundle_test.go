package mcpbundle_test

import (
	"archive/zip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/mcpbundle"
	"github.com/wrasse-app/wrasse/brain/mcpbundle/mcpbundletest"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
)

const manifest = `{"manifest_version":"0.3","name":"demo","version":"1","description":"d","author":{"name":"a"},
 "server":{"type":"node","entry_point":"index.js","mcp_config":{"command":"node","args":["${__dirname}/index.js"]}}}`

func TestOpenAndExtract(t *testing.T) {
	path := mcpbundletest.Pack(t, mcpbundletest.Echo(), "echo.dxt", nil)
	b, err := mcpbundle.Open(path, stage.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "echo-bundle" || b.Manifest.Version != "1.2.0" || len(b.Fields(mcpbundle.Folders{})) != 3 {
		t.Fatalf("%+v", b)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := b.Extract(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"manifest.json", "server/index.js", "node_modules/greet/index.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not extracted: %v", f, err)
		}
	}
}

func TestOpenRefusesHostileArchives(t *testing.T) {
	m := mcpbundletest.File{Name: "manifest.json", Body: manifest}
	idx := mcpbundletest.File{Name: "index.js", Body: "//"}
	cases := []struct {
		name  string
		files []mcpbundletest.File
		err   error
	}{
		{name: "escaping path", files: []mcpbundletest.File{m, idx, {Name: "../evil.js", Body: "x"}}, err: mcpbundle.ErrUnsafeEntry},
		{name: "absolute path", files: []mcpbundletest.File{m, idx, {Name: "/etc/evil", Body: "x"}}, err: mcpbundle.ErrUnsafeEntry},
		{name: "drive letter", files: []mcpbundletest.File{m, idx, {Name: `C:\evil`, Body: "x"}}, err: mcpbundle.ErrUnsafeEntry},
		{name: "backslash escape", files: []mcpbundletest.File{m, idx, {Name: `a\..\..\evil`, Body: "x"}}, err: mcpbundle.ErrUnsafeEntry},
		{name: "symbolic link", files: []mcpbundletest.File{m, idx, {Name: "link", Body: "/etc/passwd", Mode: fs.ModeSymlink | 0o777}}, err: mcpbundle.ErrUnsafeEntry},
		{name: "case collision", files: []mcpbundletest.File{m, idx, {Name: "A.js", Body: "x"}, {Name: "a.js", Body: "y"}}, err: mcpbundle.ErrUnsafeEntry},
		{name: "file and folder", files: []mcpbundletest.File{m, idx, {Name: "x", Body: "x"}, {Name: "x/y", Body: "y"}}, err: mcpbundle.ErrUnsafeEntry},
		{name: "control character", files: []mcpbundletest.File{m, idx, {Name: "a\x01b", Body: "x"}}, err: mcpbundle.ErrUnsafeEntry},
		{name: "no manifest", files: []mcpbundletest.File{idx}, err: mcpbundle.ErrManifest},
		{name: "manifest in a folder", files: []mcpbundletest.File{{Name: "sub/manifest.json", Body: manifest}, idx}, err: mcpbundle.ErrManifest},
		{name: "entry point missing", files: []mcpbundletest.File{m}, err: mcpbundle.ErrManifest},
		{name: "too large", files: []mcpbundletest.File{m, idx, {Name: "big", Body: strings.Repeat("a", 2<<20)}}, err: mcpbundle.ErrTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := mcpbundletest.Zip(t, "x.mcpb", tc.files)
			_, err := mcpbundle.Open(path, stage.Limits{MaxFileBytes: 1 << 20})
			if !errors.Is(err, tc.err) {
				t.Fatalf("Open: %v; want %v", err, tc.err)
			}
		})
	}
	// Not a zip at all.
	p := filepath.Join(t.TempDir(), "x.mcpb")
	if err := os.WriteFile(p, []byte("\x1f\x8b gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpbundle.Open(p, stage.Limits{}); !errors.Is(err, mcpbundle.ErrNotBundle) {
		t.Fatalf("gzip: %v; want ErrNotBundle", err)
	}
}

// A declared size that lies is caught while inflating, and nothing stays.
func TestExtractMetersBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.mcpb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range []struct{ name, body string }{{"manifest.json", manifest}, {"index.js", "//"}} {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	// 4 MiB of data declared as 10 bytes, stored.
	body := strings.Repeat("a", 4<<20)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "liar.js", Method: zip.Store, CompressedSize64: uint64(len(body)), UncompressedSize64: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, err := mcpbundle.Open(path, stage.Limits{MaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := b.Extract(dir); err == nil {
		t.Fatal("a 4 MiB entry declared as 10 bytes was extracted")
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the folder stayed: %v", err)
	}
}
