package cerebellum

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	_ "image/gif"  // register the decoder for DecodeConfig
	_ "image/jpeg" // register the decoder for DecodeConfig
	_ "image/png"  // register the decoder for DecodeConfig
	"net/http"
	"strings"
	"unicode/utf8"
)

func errorResult(err error) Result { return Result{Content: err.Error(), IsError: true} }

// Image is one picture in a tool result. Data is the raw image file (not
// base64); MIMEType is one of ImageTypes once CapResult has checked it.
type Image struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// Limits on the images of one result. They follow what model APIs accept
// (Anthropic: 5 MB and 8000 px a side per image; OpenAI: PNG, JPEG, GIF,
// WebP) and bound the work of checking them, so an image kept here never makes a provider reject the whole
// request, and a conversation full of images stays a sane size.
const (
	MaxImageBytes = 5 << 20
	MaxImageSide  = 8000
	// MaxImagePixels bounds the decoding that checks an image (4 bytes a
	// pixel, 8 for 16-bit PNG): models scale pictures down to 1 or 2
	// megapixels anyway, and a small file can claim a huge canvas.
	MaxImagePixels = 16 << 20
	MaxImages      = 8
	MaxImagesBytes = 10 << 20
)

// imageTypes are the image types results may carry, the ones every
// image-taking model API accepts.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// ImageTypeSupported reports whether t is a type results may carry.
func ImageTypeSupported(t string) bool { return imageTypes[t] }

// checkImage returns img with its type taken from its bytes (servers do
// mislabel), or a reason it cannot be passed on.
func checkImage(img Image) (Image, string) {
	if len(img.Data) == 0 {
		return img, "it is empty"
	}
	if len(img.Data) > MaxImageBytes {
		return img, fmt.Sprintf("it is %d bytes, over the %d-byte limit", len(img.Data), MaxImageBytes)
	}
	sniffed := http.DetectContentType(img.Data)
	if sniffed == "application/octet-stream" || !strings.HasPrefix(sniffed, "image/") {
		return img, "its bytes are not an image"
	}
	if !imageTypes[sniffed] {
		return img, sniffed + " is not one of PNG, JPEG, GIF or WebP"
	}
	img.MIMEType = sniffed
	if sniffed == "image/png" {
		img.Data = repairPNG(img.Data)
	}
	if sniffed != "image/webp" { // no WebP decoder in the standard library
		cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
		if err != nil {
			return img, "it cannot be read as " + sniffed
		}
		if cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
			return img, fmt.Sprintf("it is %dx%d pixels, over %d a side", cfg.Width, cfg.Height, MaxImageSide)
		}
		if cfg.Width*cfg.Height > MaxImagePixels {
			return img, fmt.Sprintf("it is %dx%d pixels, over %d megapixels", cfg.Width, cfg.Height, MaxImagePixels>>20)
		}
		// Decoded whole: a model API refuses a broken image, and with it
		// every later request of the conversation that still holds it.
		if _, _, err := image.Decode(bytes.NewReader(img.Data)); err != nil {
			return img, "it is damaged (" + err.Error() + ")"
		}
	}
	return img, ""
}

// repairPNG drops the ancillary chunks (colour profile, text, time...)
// whose checksum is wrong, which strict decoders refuse (Go's, Pillow's)
// and lenient ones ignore: server-everything's own test image has a bad
// iCCP chunk. A critical chunk is left as it is; anything that is not a
// well-formed chunk list is returned unchanged.
func repairPNG(b []byte) []byte {
	const sig = "\x89PNG\r\n\x1a\n"
	if !bytes.HasPrefix(b, []byte(sig)) {
		return b
	}
	out := append([]byte(nil), sig...)
	dropped := false
	for rest := b[len(sig):]; len(rest) > 0; {
		if len(rest) < 12 {
			return b
		}
		n := int(binary.BigEndian.Uint32(rest))
		if n < 0 || n > len(rest)-12 {
			return b
		}
		chunk := rest[:12+n]
		sum := binary.BigEndian.Uint32(chunk[8+n:])
		ancillary := chunk[4]&0x20 != 0
		if ancillary && crc32.ChecksumIEEE(chunk[4:8+n]) != sum {
			dropped = true
		} else {
			out = append(out, chunk...)
		}
		rest = rest[12+n:]
	}
	if !dropped {
		return b
	}
	return out
}

// capImages keeps the images a model API will take, up to MaxImages and
// MaxImagesBytes in all, and says in Content why any other was left out.
func capImages(res Result) Result {
	if len(res.Images) == 0 {
		return res
	}
	var kept []Image
	var notes []string
	total := 0
	for i, img := range res.Images {
		checked, why := checkImage(img)
		switch {
		case why != "":
		case len(kept) == MaxImages:
			why = fmt.Sprintf("a result carries at most %d images", MaxImages)
		case total+len(checked.Data) > MaxImagesBytes:
			why = fmt.Sprintf("a result's images total at most %d bytes", MaxImagesBytes)
		}
		if why != "" {
			notes = append(notes, fmt.Sprintf("[image %d (%s) was left out: %s]", i+1, img.MIMEType, why))
			continue
		}
		total += len(checked.Data)
		kept = append(kept, checked)
	}
	res.Images = kept
	if len(notes) > 0 {
		if res.Content != "" {
			res.Content += "\n"
		}
		res.Content += strings.Join(notes, "\n")
	}
	return res
}

// CapResult checks res.Images (see capImages), then cuts res.Content to at
// most limit bytes (at a UTF-8 boundary), ending with a note that says how
// much was cut and what to do; the note counts toward limit, so the result
// never exceeds it. limit <= 0 means no cap. Registry.Run applies it once
// to every call's result, whatever runtime produced it.
func CapResult(res Result, limit int) Result {
	res = capImages(res)
	total := len(res.Content)
	if limit <= 0 || total <= limit {
		return res
	}
	note := func(kept int) string {
		return fmt.Sprintf("\n\n[result cut to the first %d of %d bytes: %d bytes were cut. Ask for less, e.g. a narrower range or a filter.]", kept, total, total-kept)
	}
	kept := max(0, limit-len(note(total)))
	for kept > 0 && !utf8.RuneStart(res.Content[kept]) {
		kept--
	}
	res.Content = res.Content[:kept] + note(kept)
	if len(res.Content) > limit {
		// A cap smaller than the note: the note is ASCII, so any cut is valid UTF-8.
		res.Content = res.Content[:limit]
	}
	res.Truncated = true
	return res
}
