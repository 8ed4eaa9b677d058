package provider_test

import (
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

func TestVisionModel(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-4o": true, "gpt-4o-mini": true, "gpt-4.1": true, "openai/gpt-4.1": true, "gpt-5": true, "o3": true, "o4-mini": true,
		"llava:13b": true, "llama3.2-vision": true, "qwen2.5vl:7b": true, "Qwen/Qwen2.5-VL-7B-Instruct": true, "gemma3:4b": true,
		"minicpm-v": true, "anthropic/claude-sonnet-4.5": true, "google/gemini-2.5-flash": true,
		"llama3.1": false, "gpt-3.5-turbo": false, "qwen2.5-coder:7b": false, "o1-mini": false, "mistral": false, "": false, "ollama": false,
	} {
		if got := provider.VisionModel(model); got != want {
			t.Errorf("VisionModel(%q) = %v; want %v", model, got, want)
		}
	}
}

func TestParseImageInput(t *testing.T) {
	for in, want := range map[string]provider.ImageInput{"": provider.ImagesAuto, "auto": provider.ImagesAuto, "On": provider.ImagesOn, "off": provider.ImagesOff, "no": provider.ImagesOff} {
		got, err := provider.ParseImageInput(in)
		if err != nil || got != want {
			t.Errorf("ParseImageInput(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := provider.ParseImageInput("sometimes"); err == nil {
		t.Error("ParseImageInput(sometimes) accepted")
	}
	for _, tc := range []struct {
		in        provider.ImageInput
		byDefault bool
		want      bool
	}{{provider.ImagesAuto, true, true}, {provider.ImagesAuto, false, false}, {provider.ImagesOn, false, true}, {provider.ImagesOff, true, false}} {
		if got := tc.in.Accepts(tc.byDefault); got != tc.want {
			t.Errorf("%q.Accepts(%v) = %v", tc.in, tc.byDefault, got)
		}
	}
}

func TestDescribeImages(t *testing.T) {
	in := []provider.Message{
		{Role: provider.RoleUser, Content: "hi"},
		{Role: provider.RoleTool, Content: "text", Images: []provider.Image{{MIMEType: "image/png", Data: make([]byte, 2048)}}},
		{Role: provider.RoleTool, Images: []provider.Image{{MIMEType: "image/jpeg", Data: make([]byte, 3<<20)}}},
	}
	out := provider.DescribeImages(in)
	want := []string{"hi",
		"text\n[image attachment (image/png, 2.0 KB): you cannot see it; tell the user the tool returned an image]",
		"[image attachment (image/jpeg, 3.0 MB): you cannot see it; tell the user the tool returned an image]"}
	for i, m := range out {
		if m.Content != want[i] || len(m.Images) != 0 {
			t.Errorf("message %d = %q with %d images; want %q", i, m.Content, len(m.Images), want[i])
		}
	}
	if len(in[1].Images) != 1 || in[1].Content != "text" {
		t.Error("DescribeImages changed its input")
	}
	if plain := []provider.Message{{Role: provider.RoleUser, Content: "x"}}; &provider.DescribeImages(plain)[0] != &plain[0] {
		t.Error("a history without images was copied")
	}
}
