package main

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// imagesNote says, after a result's size on the terminal, which images it
// holds (the terminal shows none): "" without any.
func imagesNote(images []provider.Image) string {
	if len(images) == 0 {
		return ""
	}
	parts := make([]string, len(images))
	for i, img := range images {
		parts[i] = fmt.Sprintf("%s %d bytes", img.MIMEType, len(img.Data))
	}
	return fmt.Sprintf(" and %d image(s): %s", len(images), strings.Join(parts, ", "))
}
