package provider

import (
	"fmt"
	"strings"
)

// Image is one picture in a tool result or a person's message: the raw
// file bytes (not base64) and its MIME type, one of image/png, image/jpeg,
// image/gif, image/webp (cerebellum.CapResult, or for a message
// assistant.AttachedMessage, checked it before it was stored).
type Image struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// ImageInput says whether a provider sends tool-result images to the model
// (workspace config key imageInput).
type ImageInput string

const (
	// ImagesAuto (empty) decides by provider and model name: Anthropic
	// models take images; on an OpenAI-compatible server, the models
	// VisionModel names do.
	ImagesAuto ImageInput = ""
	// ImagesOn sends images whatever the model's name.
	ImagesOn ImageInput = "on"
	// ImagesOff never sends them: the model reads a description instead.
	ImagesOff ImageInput = "off"
)

// ParseImageInput accepts "", "auto", "on" and "off".
func ParseImageInput(s string) (ImageInput, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return ImagesAuto, nil
	case "on", "true", "yes":
		return ImagesOn, nil
	case "off", "false", "no":
		return ImagesOff, nil
	}
	return ImagesAuto, fmt.Errorf("image input %q is not auto, on or off", s)
}

// Accepts resolves the setting: auto gives byDefault.
func (in ImageInput) Accepts(byDefault bool) bool {
	switch in {
	case ImagesOn:
		return true
	case ImagesOff:
		return false
	}
	return byDefault
}

// visionNames are parts of model names that take image input on
// OpenAI-compatible servers: OpenAI's multimodal families, the Ollama and
// Hugging Face vision models, and models other vendors serve through
// OpenRouter. A model not matched reads descriptions; set imageInput to
// "on" for one this list misses.
var visionNames = []string{
	"gpt-4o", "gpt-4.1", "gpt-4-turbo", "gpt-4-vision", "gpt-5", "chatgpt-4o",
	"llava", "bakllava", "vision", "qwen2.5vl", "qwen2.5-vl", "qwen2-vl", "qwen3-vl", "qwen-vl",
	"minicpm-v", "moondream", "gemma3", "llama4", "pixtral", "mistral-small3.1", "mistral-small3.2",
	"granite3.2-vision", "internvl", "claude-", "gemini",
}

// VisionModel reports whether a model on an OpenAI-compatible server takes
// image input, by its name: "gpt-4o", "llava:13b", "qwen2.5vl:7b",
// "openai/gpt-4.1" and "o3" do; "llama3.1", "gpt-3.5-turbo" and
// "qwen2.5-coder" do not.
func VisionModel(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	base := m[strings.LastIndex(m, "/")+1:]
	// OpenAI's reasoning models o1, o3, o4-mini...; not o1-mini or o1-preview.
	if len(base) >= 2 && base[0] == 'o' && base[1] >= '1' && base[1] <= '9' &&
		!strings.HasPrefix(base, "o1-mini") && !strings.HasPrefix(base, "o1-preview") {
		return true
	}
	for _, n := range visionNames {
		if strings.Contains(base, n) {
			return true
		}
	}
	return false
}

// ImageNote is how a tool result's image is told to a model that cannot
// see it.
func ImageNote(img Image) string {
	return fmt.Sprintf("[image attachment (%s, %s): you cannot see it; tell the user the tool returned an image]", img.MIMEType, sizeText(len(img.Data)))
}

// UserImageNote is how an image the person attached to their message is
// told to a model that cannot see it.
func UserImageNote(img Image) string {
	return fmt.Sprintf("[image attachment (%s, %s): you cannot see it; tell the user this model cannot read images]", img.MIMEType, sizeText(len(img.Data)))
}

// NoteFor is the note for an image of a message of role r.
func NoteFor(r Role, img Image) string {
	if r == RoleUser {
		return UserImageNote(img)
	}
	return ImageNote(img)
}

// DescribeImages returns msgs with every image replaced by an ImageNote
// appended to its message's text, for a model without image input. msgs
// is not changed.
func DescribeImages(msgs []Message) []Message {
	out := msgs
	copied := false
	for i, m := range msgs {
		if len(m.Images) == 0 {
			continue
		}
		if !copied {
			out = append([]Message(nil), msgs...)
			copied = true
		}
		notes := make([]string, 0, len(m.Images)+1)
		if m.Content != "" {
			notes = append(notes, m.Content)
		}
		for _, img := range m.Images {
			notes = append(notes, NoteFor(m.Role, img))
		}
		out[i].Content = strings.Join(notes, "\n")
		out[i].Images = nil
	}
	return out
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
