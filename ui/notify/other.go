//go:build !(linux || freebsd || openbsd || netbsd)

package notify

import (
	"log/slog"

	"fyne.io/fyne/v2"
)

// New is Fyne's notification: this system's notifications cannot be
// followed from here.
func New(a fyne.App, _ *slog.Logger) Func { return Fyne(a) }
