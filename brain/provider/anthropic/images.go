package anthropic

import (
	"encoding/base64"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Tool-result images go inside the tool_result block, after its text, as
// image blocks with a base64 source: the Messages API takes PNG, JPEG, GIF
// and WebP there. Every Claude model from Claude 3 on reads them; only the
// retired Claude 2 and Claude Instant do not, and they get the text
// description instead (as every model does with imageInput "off").

// A person's message's images follow its text in the user message, as
// image blocks of the same kind.

// takesImages reports whether model reads images by default.
func takesImages(model string) bool {
	m := strings.ToLower(model)
	return !strings.HasPrefix(m, "claude-2") && !strings.HasPrefix(m, "claude-instant")
}

// withImages keeps the history's images for a model that reads them and
// describes them otherwise.
func (p *Provider) withImages(msgs []provider.Message, model string) []provider.Message {
	if p.images.Accepts(takesImages(model)) {
		return msgs
	}
	return provider.DescribeImages(msgs)
}

// imageTypes are the media types the API takes.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// toolResultContent is a tool result's text then its images; an image the
// API would refuse (a type it does not take, no data) is described, so
// one bad image does not make the whole request fail.
func toolResultContent(m provider.Message) []sdk.ToolResultBlockParamContentUnion {
	var out []sdk.ToolResultBlockParamContentUnion
	text := func(s string) {
		out = append(out, sdk.ToolResultBlockParamContentUnion{OfText: &sdk.TextBlockParam{Text: s}})
	}
	if m.Content != "" {
		text(m.Content)
	}
	for _, img := range m.Images {
		if !imageTypes[img.MIMEType] || len(img.Data) == 0 {
			text(provider.ImageNote(img))
			continue
		}
		out = append(out, sdk.ToolResultBlockParamContentUnion{OfImage: &sdk.ImageBlockParam{
			Source: sdk.ImageBlockParamSourceUnion{OfBase64: &sdk.Base64ImageSourceParam{
				Data:      base64.StdEncoding.EncodeToString(img.Data),
				MediaType: sdk.Base64ImageSourceMediaType(img.MIMEType),
			}},
		}})
	}
	return out
}

// userImages are the image blocks of a person's message; an image the API
// would refuse is described in a text block instead.
func userImages(m provider.Message) []sdk.ContentBlockParamUnion {
	var out []sdk.ContentBlockParamUnion
	for _, img := range m.Images {
		if !imageTypes[img.MIMEType] || len(img.Data) == 0 {
			out = append(out, sdk.NewTextBlock(provider.UserImageNote(img)))
			continue
		}
		out = append(out, sdk.NewImageBlockBase64(img.MIMEType, base64.StdEncoding.EncodeToString(img.Data)))
	}
	return out
}
