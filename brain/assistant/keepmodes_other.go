//go:build !linux

package assistant

import (
	"errors"
	"log/slog"
)

// modeWatch is Linux's (inotify); elsewhere modes are checked when the
// workspace opens and after each tool call only.
type modeWatch struct{}

func newModeWatch(*slog.Logger, func()) (*modeWatch, error) {
	return nil, errors.New("this system has no watch for file modes in this build")
}

func (*modeWatch) add(string) {}

func (*modeWatch) Close() error { return nil }
