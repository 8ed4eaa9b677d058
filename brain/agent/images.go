package agent

import (
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// imageTokens is what one image is counted as in the context budget: the
// most Anthropic charges for an image at its largest useful size (about
// 1.15 megapixels, width×height/750), more than OpenAI's high detail tile
// count for the same picture. Images are not text, so the byte estimate
// does not apply.
const imageTokens = 1600

// resultImages are a tool result's images as the store and the providers
// hold them.
func resultImages(images []cerebellum.Image) []provider.Image {
	if len(images) == 0 {
		return nil
	}
	out := make([]provider.Image, len(images))
	for i, img := range images {
		out[i] = provider.Image{MIMEType: img.MIMEType, Data: img.Data}
	}
	return out
}
