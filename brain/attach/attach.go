package attach

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // the image types a model API takes, to read their size
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Kind is what a file is sent as.
type Kind int

const (
	// Text is a text file or code, sent as its text.
	Text Kind = iota
	// Image is a picture, sent as image content.
	Image
	// PDF is a PDF document, sent as the text extracted from it.
	PDF
)

func (k Kind) String() string {
	switch k {
	case Image:
		return "image"
	case PDF:
		return "PDF"
	}
	return "text"
}

// Limits. A file over MaxFileBytes is refused before it is read (reading
// a film into memory to find it is not text helps nobody); a text longer
// than MaxTextBytes is cut there and the cut is said, so the model and
// the person both know the rest was not sent.
const (
	MaxFileBytes  = 32 << 20
	MaxTextBytes  = 200 << 10
	MaxImageBytes = 5 << 20 // what a model API takes (cerebellum.MaxImageBytes)
	// maxPDFPages bounds the extraction of a PDF with a huge page count
	// and little text on each page.
	maxPDFPages = 2000
)

// Errors say what is wrong with the file and what to do.
var (
	ErrTooBig     = errors.New("file too big to attach")
	ErrBinary     = errors.New("not a text file, image or PDF")
	ErrUnreadable = errors.New("file cannot be read")
	ErrNoText     = errors.New("PDF has no text to extract")
)

// File is one attached file as it goes with a message.
type File struct {
	// Path is where it was read (absolute); Name its base name.
	Path, Name string
	// Size is the file's size in bytes.
	Size int64
	Kind Kind
	// MIMEType is the type read from the content (image/png, text/plain,
	// application/pdf …).
	MIMEType string
	// Text is the text sent for Text and PDF, cut at MaxTextBytes.
	Text string
	// Data is an image's bytes.
	Data []byte
	// Cut says what was left out ("" when nothing was), e.g. "cut at
	// 200 KB of 1.3 MB".
	Cut string
	// Width and Height are an image's size in pixels, when it could be read.
	Width, Height int
}

// Read reads the file at path as an attachment. Errors wrap ErrTooBig,
// ErrBinary, ErrUnreadable or ErrNoText, worded for the person.
func Read(path string) (File, error) {
	name := filepath.Base(path)
	// Stat before opening: opening a named pipe waits for a writer.
	info, err := os.Stat(path)
	if err != nil {
		return File{}, fmt.Errorf("%w: %s: %w", ErrUnreadable, name, err)
	}
	if err := checkInfo(name, info); err != nil {
		return File{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return File{}, fmt.Errorf("%w: %s: %w", ErrUnreadable, name, err)
	}
	defer f.Close()
	return ReadOpen(f, path)
}

// ReadOpen reads f, opened already at path, as an attachment, as Read
// does: for a caller that opened it through its own checks (the app
// refuses its own data, wrasse.db and config.json, on what it opened).
// The caller closes f.
func ReadOpen(f *os.File, path string) (File, error) {
	name := filepath.Base(path)
	info, err := f.Stat()
	if err != nil {
		return File{}, fmt.Errorf("%w: %s: %w", ErrUnreadable, name, err)
	}
	if err := checkInfo(name, info); err != nil { // replaced since the first look
		return File{}, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return File{}, fmt.Errorf("%w: %s: %w", ErrUnreadable, name, err)
	}
	if len(data) > MaxFileBytes {
		return File{}, fmt.Errorf("%w: %s grew past %s while it was read", ErrTooBig, name, Size(MaxFileBytes))
	}
	out, err := Parse(name, data)
	out.Path = path
	return out, err
}

// checkInfo refuses what is not a regular file of at most MaxFileBytes.
func checkInfo(name string, info os.FileInfo) error {
	if info.IsDir() {
		return fmt.Errorf("%w: %s is a folder; attach the files in it, or grant the folder in Settings → Folders", ErrUnreadable, name)
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not a regular file", ErrUnreadable, name)
	}
	if info.Size() > MaxFileBytes {
		return fmt.Errorf("%w: %s is %s; files up to %s can be attached", ErrTooBig, name, Size(info.Size()), Size(MaxFileBytes))
	}
	return nil
}

// Parse makes an attachment of a file's content; name is only for
// messages. The type comes from the bytes, not the name: a PNG called
// notes.txt is an image, and a binary called main.go is refused. It never
// panics, whatever data holds.
func Parse(name string, data []byte) (File, error) {
	out := File{Name: name, Size: int64(len(data))}
	if len(data) > MaxFileBytes {
		return out, fmt.Errorf("%w: %s is %s; files up to %s can be attached", ErrTooBig, name, Size(int64(len(data))), Size(MaxFileBytes))
	}
	sniff := http.DetectContentType(data)
	switch {
	case bytes.HasPrefix(data, []byte("%PDF-")):
		out.Kind, out.MIMEType = PDF, "application/pdf"
		text, pages, err := pdfText(data)
		if err != nil {
			return out, fmt.Errorf("%w: %s is a PDF that could not be read (%v); save it again or paste its text", ErrUnreadable, name, err)
		}
		if strings.TrimSpace(text) == "" {
			return out, fmt.Errorf("%w: %s (%d pages) holds no text, perhaps only scanned pictures; attach the pages as images instead", ErrNoText, name, pages)
		}
		out.Text, out.Cut = cutText(text)
		return out, nil
	case isImage(sniff):
		out.Kind, out.MIMEType = Image, sniff
		if len(data) > MaxImageBytes {
			return out, fmt.Errorf("%w: the image %s is %s; models take images up to %s: make it smaller", ErrTooBig, name, Size(int64(len(data))), Size(MaxImageBytes))
		}
		if sniff != "image/webp" {
			cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil {
				return out, fmt.Errorf("%w: the image %s is damaged: %w", ErrUnreadable, name, err)
			}
			out.Width, out.Height = cfg.Width, cfg.Height
		}
		out.Data = data
		return out, nil
	case looksText(data):
		out.Kind = Text
		out.MIMEType = "text/plain"
		text := strings.TrimPrefix(string(data), "\uFEFF")
		out.Text, out.Cut = cutText(text)
		return out, nil
	}
	return out, fmt.Errorf("%w: %s is %s (%s); attach text files, code, PDFs or PNG, JPEG, GIF and WebP images", ErrBinary, name, describe(sniff), Size(int64(len(data))))
}

func isImage(mime string) bool {
	switch mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}

// describe names a sniffed type for a refusal.
func describe(mime string) string {
	switch {
	case mime == "application/octet-stream":
		return "binary data"
	case strings.HasPrefix(mime, "image/"):
		return "an image of a type models do not take (" + mime + ")"
	}
	return "of type " + strings.Split(mime, ";")[0]
}

// looksText reports whether data is text: valid UTF-8 (a sequence cut at
// the very end allowed) with no NUL and few control characters besides
// tab, newline, carriage return and form feed. Latin-1 and UTF-16 files
// count as binary: they would reach the model garbled.
func looksText(data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 {
		return false
	}
	check := data
	if len(check) > 1<<20 {
		check = check[:1<<20] // a large file's first MB decides
	}
	control := 0
	for i := 0; i < len(check); {
		r, n := utf8.DecodeRune(check[i:])
		if r == utf8.RuneError && n <= 1 {
			if len(check)-i < utf8.UTFMax && !utf8.FullRune(check[i:]) {
				break // a character cut by the 1 MB window or the file's end
			}
			return false
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' || r == 0x7f {
			control++
		}
		i += n
	}
	return control*100 <= len(check) // under 1%: a stray escape in a log is fine
}

// cutText cuts text at MaxTextBytes on a character boundary and says so.
func cutText(text string) (string, string) {
	if len(text) <= MaxTextBytes {
		return text, ""
	}
	n := MaxTextBytes
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n], fmt.Sprintf("cut at %s of %s", Size(int64(n)), Size(int64(len(text))))
}

// pdfText extracts a PDF's text a page at a time, stopping once there is
// more than MaxTextBytes (the rest would be cut anyway). The PDF reader
// panics on some damaged files; that is an error here.
func pdfText(data []byte) (text string, pages int, err error) {
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("damaged PDF: %v", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", 0, err
	}
	list := pageList(r.Trailer().Key("Root").Key("Pages"))
	pages = len(list)
	var b strings.Builder
	for _, v := range list {
		if b.Len() > MaxTextBytes {
			break
		}
		t, err := pdf.Page{V: v}.GetPlainText(nil)
		if err != nil {
			continue // one bad page; the others may hold the text
		}
		if b.Len() > 0 && t != "" {
			b.WriteString("\n\n")
		}
		b.WriteString(t)
	}
	return strings.ToValidUTF8(b.String(), "\uFFFD"), pages, nil
}

// pageList walks a PDF's page tree itself rather than through
// Reader.Page, which follows a tree whose Kids loop back without end (a
// stack overflow no recover catches): the walk is bounded in depth and in
// pages, and a page whose Parent chain does not end within that depth
// (the reader climbs it for inherited fonts) is left out.
func pageList(root pdf.Value) []pdf.Value {
	const maxDepth = 32
	var out []pdf.Value
	visits := 0
	var walk func(v pdf.Value, depth int)
	walk = func(v pdf.Value, depth int) {
		visits++
		if depth > maxDepth || len(out) >= maxPDFPages || visits > 4*maxPDFPages || v.Kind() != pdf.Dict {
			return
		}
		switch v.Key("Type").Name() {
		case "Pages":
			kids := v.Key("Kids")
			for i := range min(kids.Len(), maxPDFPages) {
				walk(kids.Index(i), depth+1)
			}
		case "Page":
			if parentsEnd(v, maxDepth+1) {
				out = append(out, v)
			}
		}
	}
	walk(root, 0)
	return out
}

// parentsEnd reports whether v's Parent chain ends within n steps.
func parentsEnd(v pdf.Value, n int) bool {
	for range n {
		if v.IsNull() {
			return true
		}
		v = v.Key("Parent")
	}
	return v.IsNull()
}

// Size words a byte count: 900 bytes, 12.5 KB, 3.2 MB.
func Size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
