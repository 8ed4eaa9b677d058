package openai

import (
	"encoding/base64"
	"fmt"

	sdk "github.com/openai/openai-go/v3"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Chat Completions tool messages carry text only (the SDK's tool content
// is a string or text parts), and a user message may not come between an
// assistant's tool calls and their results. So the images of one step's
// results follow its last tool message, in one user message of image_url
// parts (data: URIs), each introduced by a text part naming the call it
// belongs to; the tool message itself says the image follows. Whether a
// model reads images is known by name (provider.VisionModel: gpt-4o,
// llava, qwen2.5vl...), or set with imageInput; otherwise the model reads
// a description of each image.

// A person's message with images is one user message of content parts:
// its text, then each image as an image_url part with a data: URI (a
// model that does not read images got the message described instead:
// withImages).

// withImages keeps the history's images for a model that reads them and
// describes them otherwise. A kept image is announced in its result.
func (p *Provider) withImages(msgs []provider.Message, model string) []provider.Message {
	if !p.images.Accepts(provider.VisionModel(model)) {
		return provider.DescribeImages(msgs)
	}
	out := msgs
	copied := false
	for i, m := range msgs {
		if m.Role != provider.RoleTool || len(m.Images) == 0 {
			continue
		}
		if !copied {
			out = append([]provider.Message(nil), msgs...)
			copied = true
		}
		note := fmt.Sprintf("[%d image(s) returned by this call follow in the next user message]", len(m.Images))
		if out[i].Content != "" {
			note = out[i].Content + "\n" + note
		}
		out[i].Content = note
	}
	return out
}

// appendImages adds, after history[i] when it is the last of a run of tool
// results, one user message with the images of that run.
func appendImages(out []sdk.ChatCompletionMessageParamUnion, history []provider.Message, i int) []sdk.ChatCompletionMessageParamUnion {
	if history[i].Role != provider.RoleTool || (i+1 < len(history) && history[i+1].Role == provider.RoleTool) {
		return out
	}
	start := i
	for start > 0 && history[start-1].Role == provider.RoleTool {
		start--
	}
	var parts []sdk.ChatCompletionContentPartUnionParam
	for _, m := range history[start : i+1] {
		if len(m.Images) == 0 {
			continue
		}
		parts = append(parts, sdk.TextContentPart(fmt.Sprintf("Images returned by the tool call %s (%s):", m.ToolCallID, m.ToolName)))
		parts = appendImageParts(parts, m)
	}
	if len(parts) == 0 {
		return out
	}
	return append(out, sdk.UserMessage(parts))
}

// userParts is a person's message with images: its text, then its images.
func userParts(m provider.Message) []sdk.ChatCompletionContentPartUnionParam {
	parts := make([]sdk.ChatCompletionContentPartUnionParam, 0, len(m.Images)+1)
	if m.Content != "" {
		parts = append(parts, sdk.TextContentPart(m.Content))
	}
	return appendImageParts(parts, m)
}

// appendImageParts adds m's images as image_url parts; one without bytes
// (missing from the store) is described instead.
func appendImageParts(parts []sdk.ChatCompletionContentPartUnionParam, m provider.Message) []sdk.ChatCompletionContentPartUnionParam {
	for _, img := range m.Images {
		if len(img.Data) == 0 {
			parts = append(parts, sdk.TextContentPart(provider.NoteFor(m.Role, img)))
			continue
		}
		parts = append(parts, sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{
			URL: "data:" + img.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(img.Data),
		}))
	}
	return parts
}
