package cerebellum_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	_ "image/gif"
	_ "image/jpeg"
	"image/png"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.NRGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCapResultImages(t *testing.T) {
	small := pngOf(t, 2, 2)
	webp := append([]byte("RIFF\x10\x00\x00\x00WEBPVP8 "), make([]byte, 16)...)
	many := make([]cerebellum.Image, cerebellum.MaxImages+1)
	for i := range many {
		many[i] = cerebellum.Image{MIMEType: "image/png", Data: small}
	}
	cases := []struct {
		name   string
		images []cerebellum.Image
		kept   []string // MIME types kept, in order
		notes  []string // each must appear in Content
	}{
		{name: "a PNG is kept", images: []cerebellum.Image{{MIMEType: "image/png", Data: small}}, kept: []string{"image/png"}},
		{name: "a mislabelled PNG gets its real type", images: []cerebellum.Image{{MIMEType: "image/jpeg", Data: small}}, kept: []string{"image/png"}},
		{name: "WebP is kept unread", images: []cerebellum.Image{{MIMEType: "image/webp", Data: webp}}, kept: []string{"image/webp"}},
		{name: "empty", images: []cerebellum.Image{{MIMEType: "image/png"}}, notes: []string{"image 1 (image/png) was left out: it is empty"}},
		{name: "not an image", images: []cerebellum.Image{{MIMEType: "image/png", Data: []byte("hello, world")}}, notes: []string{"not an image"}},
		{name: "broken PNG", images: []cerebellum.Image{{MIMEType: "image/png", Data: small[:20]}}, notes: []string{"cannot be read as image/png"}},
		{name: "unsupported type", images: []cerebellum.Image{{MIMEType: "image/bmp", Data: []byte("BM" + strings.Repeat("\x00", 40))}}, notes: []string{"image/bmp is not one of"}},
		{name: "too wide", images: []cerebellum.Image{{MIMEType: "image/png", Data: claiming(small, cerebellum.MaxImageSide+1, 1)}}, notes: []string{"over 8000 a side"}},
		{name: "too many pixels", images: []cerebellum.Image{{MIMEType: "image/png", Data: claiming(small, 5000, 4000)}}, notes: []string{"5000x4000 pixels, over 16 megapixels"}},
		{name: "too large", images: []cerebellum.Image{{MIMEType: "image/png", Data: append(bytes.Clone(small), make([]byte, cerebellum.MaxImageBytes)...)}}, notes: []string{"over the 5242880-byte limit"}},
		{name: "a PNG with a bad ancillary chunk is repaired", images: []cerebellum.Image{{MIMEType: "image/png", Data: withBadChunk(small)}}, kept: []string{"image/png"}},
		{name: "a PNG cut after its header", images: []cerebellum.Image{{MIMEType: "image/png", Data: small[:len(small)-20]}}, notes: []string{"image 1 (image/png) was left out: it is damaged"}},
		{name: "too many", images: many, kept: strings.Fields(strings.Repeat("image/png ", cerebellum.MaxImages)), notes: []string{"image 9 (image/png) was left out: a result carries at most 8 images"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := cerebellum.CapResult(cerebellum.Result{Content: "text", Images: tc.images}, 1000)
			var got []string
			for _, img := range r.Images {
				got = append(got, img.MIMEType)
			}
			if strings.Join(got, ",") != strings.Join(tc.kept, ",") {
				t.Errorf("kept %v, want %v", got, tc.kept)
			}
			if !strings.HasPrefix(r.Content, "text") {
				t.Errorf("content %q lost its text", r.Content)
			}
			for _, n := range tc.notes {
				if !strings.Contains(r.Content, n) {
					t.Errorf("content %q does not say %q", r.Content, n)
				}
			}
			if len(tc.notes) == 0 && r.Content != "text" {
				t.Errorf("content %q, want it unchanged", r.Content)
			}
			for _, img := range r.Images {
				if img.MIMEType == "image/png" {
					if _, err := png.Decode(bytes.NewReader(img.Data)); err != nil {
						t.Errorf("a kept PNG does not decode: %v", err)
					}
				}
			}
			again := cerebellum.CapResult(r, 1000)
			if again.Content != r.Content || len(again.Images) != len(r.Images) {
				t.Errorf("capping twice changed the result: %q", again.Content)
			}
		})
	}
}

// withBadChunk inserts a tEXt chunk with a wrong checksum after the IHDR
// chunk (8-byte signature, then IHDR's 4+4+13+4 bytes), as the MCP
// reference server's test image has a bad iCCP chunk.
func withBadChunk(p []byte) []byte {
	const afterIHDR = 8 + 25
	chunk := []byte("\x00\x00\x00\x04tEXtab\x00c\xde\xad\xbe\xef")
	out := append(bytes.Clone(p[:afterIHDR]), chunk...)
	return append(out, p[afterIHDR:]...)
}

func TestRepairedPNGOnlyLosesTheBadChunk(t *testing.T) {
	small := pngOf(t, 3, 3)
	bad := withBadChunk(small)
	if _, err := png.Decode(bytes.NewReader(bad)); err == nil {
		t.Fatal("the test image decodes with its bad chunk: the test proves nothing")
	}
	r := cerebellum.CapResult(cerebellum.Result{Images: []cerebellum.Image{{MIMEType: "image/png", Data: bad}}}, 0)
	if len(r.Images) != 1 || !bytes.Equal(r.Images[0].Data, small) {
		t.Errorf("repaired image differs from the original without the chunk (%d images)", len(r.Images))
	}
}

// Images come from servers: whatever the bytes, checking them must not
// fail, and an image kept is one a strict decoder reads.
func FuzzCapResultImage(f *testing.F) {
	small := pngOf(f, 2, 2)
	f.Add(small)
	f.Add(withBadChunk(small))
	f.Add(small[:len(small)-5])
	f.Add([]byte("GIF89a"))
	f.Add([]byte("RIFF\x10\x00\x00\x00WEBPVP8 "))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := cerebellum.CapResult(cerebellum.Result{Images: []cerebellum.Image{{MIMEType: "image/png", Data: data}}}, 0)
		for _, img := range r.Images {
			if img.MIMEType == "image/webp" {
				continue
			}
			if _, _, err := image.Decode(bytes.NewReader(img.Data)); err != nil {
				t.Fatalf("kept a %s that does not decode: %v", img.MIMEType, err)
			}
		}
		if len(r.Images) == 0 && !strings.Contains(r.Content, "left out") {
			t.Fatalf("dropped an image without saying why: %q", r.Content)
		}
	})
}

// claiming is PNG p whose header claims a w×h canvas (its checksum
// fixed): the size checks read only the header.
func claiming(p []byte, w, h uint32) []byte {
	out := bytes.Clone(p)
	binary.BigEndian.PutUint32(out[16:], w)
	binary.BigEndian.PutUint32(out[20:], h)
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}
