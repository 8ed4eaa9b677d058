package attach

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// minimalPDF is a one-page PDF showing each of lines in Helvetica, with
// a correct cross-reference table.
func minimalPDF(lines ...string) []byte {
	var content strings.Builder
	content.WriteString("BT /F1 12 Tf 72 720 Td\n")
	for _, l := range lines {
		fmt.Fprintf(&content, "(%s) Tj 0 -14 Td\n", l)
	}
	content.WriteString("ET\n")
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", content.Len(), content.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func pngBytes(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	img.Set(0, 0, color.White)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func TestParse(t *testing.T) {
	long := strings.Repeat("é", MaxTextBytes) // 2 bytes each: cut mid-file
	tests := []struct {
		name, file string
		data       []byte
		kind       Kind
		mime       string
		text       string // a part of the text sent
		cut        string // a part of the cut note; "" none
		err        error
	}{
		{name: "code", file: "main.go", data: []byte("package main\n\nfunc main() {}\n"), kind: Text, mime: "text/plain", text: "func main()"},
		{name: "byte order mark dropped", file: "a.txt", data: []byte("\uFEFFhello"), kind: Text, text: "hello"},
		{name: "long text cut", file: "big.txt", data: []byte(long), kind: Text, text: "éé", cut: "cut at 200.0 KB of 400.0 KB"},
		{name: "png named txt is an image", file: "notes.txt", data: pngBytes(40, 20), kind: Image, mime: "image/png"},
		{name: "pdf text", file: "report.pdf", data: minimalPDF("Quarterly report", "Revenue grew"), kind: PDF, mime: "application/pdf", text: "Quarterly report"},
		{name: "pdf without text", file: "scan.pdf", data: minimalPDF(), err: ErrNoText},
		{name: "damaged pdf", file: "bad.pdf", data: []byte("%PDF-1.4\ngarbage"), err: ErrUnreadable},
		{name: "binary", file: "main.go", data: []byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0}, err: ErrBinary},
		{name: "latin-1 is binary", file: "old.txt", data: []byte("caf\xe9 cr\xe8me"), err: ErrBinary},
		{name: "damaged png", file: "x.png", data: pngBytes(4, 4)[:30], err: ErrUnreadable},
		{name: "bmp is not taken", file: "x.bmp", data: append([]byte("BM"), make([]byte, 60)...), err: ErrBinary},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.file, tt.data)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Parse = %v; want %v", err, tt.err)
				}
				if !strings.Contains(err.Error(), tt.file) {
					t.Errorf("the error %q does not name the file", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.Kind != tt.kind || tt.mime != "" && f.MIMEType != tt.mime {
				t.Errorf("kind %v %q; want %v %q", f.Kind, f.MIMEType, tt.kind, tt.mime)
			}
			if !strings.Contains(f.Text, tt.text) {
				t.Errorf("text %.80q does not hold %q", f.Text, tt.text)
			}
			if len(f.Text) > MaxTextBytes {
				t.Errorf("text of %d bytes is over the limit", len(f.Text))
			}
			if tt.cut == "" && f.Cut != "" || !strings.Contains(f.Cut, tt.cut) {
				t.Errorf("cut %q; want %q", f.Cut, tt.cut)
			}
			if tt.kind == Image && (len(f.Data) != len(tt.data) || f.Width != 40 || f.Height != 20) {
				t.Errorf("image %d bytes %dx%d", len(f.Data), f.Width, f.Height)
			}
		})
	}
}

func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "film.mkv")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	tests := []struct {
		path string
		err  error
		says string
	}{
		{big, ErrTooBig, "files up to 32.0 MB"},
		{dir, ErrUnreadable, "is a folder"},
		{filepath.Join(dir, "missing.txt"), ErrUnreadable, "missing.txt"},
	}
	for _, tt := range tests {
		_, err := Read(tt.path)
		if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("Read(%s) = %v; want %v saying %q", filepath.Base(tt.path), err, tt.err, tt.says)
		}
	}
	ok := filepath.Join(dir, "ok.md")
	if err := os.WriteFile(ok, []byte("# Title\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Read(ok)
	if err != nil || got.Path != ok || got.Name != "ok.md" || got.Text != "# Title\n" {
		t.Errorf("Read(ok.md) = %+v, %v", got, err)
	}
}

// FuzzParse: whatever a dropped file holds, Parse neither panics nor
// sends more than the limits allow, and what it accepts is consistent.
func FuzzParse(f *testing.F) {
	f.Add([]byte("hello\n"))
	f.Add(minimalPDF("Hello", "World"))
	f.Add(pngBytes(3, 2))
	f.Add([]byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"))
	f.Add([]byte("GIF89a\x01\x00\x01\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Parse("fuzz", data)
		if err != nil {
			return
		}
		if len(got.Text) > MaxTextBytes {
			t.Fatalf("text of %d bytes", len(got.Text))
		}
		switch got.Kind {
		case Image:
			if len(got.Data) == 0 || len(got.Data) > MaxImageBytes || !isImage(got.MIMEType) {
				t.Fatalf("image %q of %d bytes", got.MIMEType, len(got.Data))
			}
		case Text, PDF:
			if got.Data != nil {
				t.Fatal("text with image data")
			}
		}
	})
}
