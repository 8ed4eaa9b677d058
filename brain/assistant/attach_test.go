package assistant

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/attach"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/cerebellum"
)

func tinyPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Attached files go in the message: text in a <file> block naming it,
// with the cut said; a PDF marked as extracted text; images as images of
// the message up to its count limit, the rest named with the reason.
func TestFilesMessage(t *testing.T) {
	pic := tinyPNG(t)
	files := []attach.File{
		{Name: "main.go", Path: "/src/main.go", Kind: attach.Text, MIMEType: "text/plain", Text: "package main\n"},
		{Name: "big.log", Path: "/var/big.log", Kind: attach.Text, MIMEType: "text/plain", Text: "lines", Cut: "cut at 200.0 KB of 1.2 MB"},
		{Name: "report.pdf", Path: "/doc/report.pdf", Kind: attach.PDF, MIMEType: "application/pdf", Text: "Revenue grew"},
	}
	for range cerebellum.MaxImages + 1 {
		files = append(files, attach.File{Name: "shot.png", Kind: attach.Image, MIMEType: "image/png", Data: pic})
	}
	already := []provider.Image{{MIMEType: "image/png", Data: pic}} // from an attached resource
	msg, images := FilesMessage("Look at these.\n", files, already)
	if len(images) != cerebellum.MaxImages {
		t.Errorf("%d images; want the limit, %d", len(images), cerebellum.MaxImages)
	}
	for _, want := range []string{
		"Look at these.\n\n<file name=\"main.go\" path=\"/src/main.go\" type=\"text/plain\">\npackage main\n</file>",
		"lines\n[cut at 200.0 KB of 1.2 MB: the rest of the file was not sent; fs_read of its path reads it in this conversation]\n</file>",
		`note="text extracted from the PDF">` + "\nRevenue grew",
		"[Attached image shot.png (image/png, ",
		"image 8 of this message]",
		"not included: a message carries at most 8 images]",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message lacks %q:\n%s", want, msg)
		}
	}
	if got, imgs := FilesMessage("plain", nil, nil); got != "plain" || imgs != nil {
		t.Errorf("no files changed the message: %q %v", got, imgs)
	}
}
