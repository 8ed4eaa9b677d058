// Package assets holds the files the app ships inside its binary: the icon
// (the same file FyneApp.toml names, so `fyne package` and a plain
// `go build` show the same picture).
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:embed icon.png
var iconPNG []byte

// Icon is the application icon (256×256 PNG).
func Icon() fyne.Resource { return fyne.NewStaticResource("icon.png", iconPNG) }
