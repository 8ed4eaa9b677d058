package assistant

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/attach"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// FilesMessage adds the files the person attached (dropped, pasted or
// picked in the window) to a message: after text, each text file, code or
// PDF in a <file> block naming it, its path and type, with the cut said
// when it was cut (attach.MaxTextBytes); each image appended to images
// (the message's images so far, from attached resources) when it passes
// the checks a tool result's images pass and the message's count and
// byte limits, and named in the text where it was attached; an image
// that fails them named with the reason it was not sent. The content
// travels in the message, so the model reads the file wherever it lies:
// attaching grants no folder.
func FilesMessage(text string, files []attach.File, images []provider.Image) (string, []provider.Image) {
	if len(files) == 0 {
		return text, images
	}
	total := 0
	for _, img := range images {
		total += len(img.Data)
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(text, "\n"))
	for _, f := range files {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if f.Kind == attach.Image {
			img, reason := checkedImage(mcp.ResourceContent{MIMEType: f.MIMEType, Blob: f.Data}, len(images), total)
			if reason == "" {
				images = append(images, img)
				total += len(img.Data)
				fmt.Fprintf(&b, "[Attached image %s (%s, %s): image %d of this message]", f.Name, img.MIMEType, attach.Size(int64(len(img.Data))), len(images))
			} else {
				fmt.Fprintf(&b, "[Attached image %s (%s, %s), not included: %s]", f.Name, f.MIMEType, attach.Size(int64(len(f.Data))), reason)
			}
			continue
		}
		fmt.Fprintf(&b, "<file name=%q", f.Name)
		if f.Path != "" {
			fmt.Fprintf(&b, " path=%q", f.Path)
		}
		fmt.Fprintf(&b, " type=%q", f.MIMEType)
		if f.Kind == attach.PDF {
			b.WriteString(` note="text extracted from the PDF"`)
		}
		b.WriteString(">\n" + strings.TrimRight(f.Text, "\n"))
		if f.Cut != "" {
			fmt.Fprintf(&b, "\n[%s: the rest of the file was not sent", f.Cut)
			if f.Kind == attach.Text && f.Path != "" {
				// Sent with TurnOptions.Files, it is readable (attachread.go).
				b.WriteString("; fs_read of its path reads it in this conversation")
			}
			b.WriteString("]")
		}
		b.WriteString("\n</file>")
	}
	return b.String(), images
}

// SeesImages reports whether the configured model (model "" means the
// configured one) is sent the images of a message, as far as the
// configuration and the model's name tell without asking its server: the
// imageInput setting when on or off; else Anthropic's models, and on
// other servers the models provider.VisionModel names. The window warns
// before a message with images goes to one that does not: it would be
// told only that an image was attached.
func (a *App) SeesImages(model string) bool {
	cfg := a.model.Load().cfg
	if model == "" {
		model = cfg.Model
	}
	in, _ := provider.ParseImageInput(cfg.ImageInput)
	return in.Accepts(cfg.Provider == "anthropic" || provider.VisionModel(model))
}
