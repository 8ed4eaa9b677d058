// Package smoke holds the desktop app's smoke test: it builds the real
// wrasse binary, starts it under an X server (Xvfb, through `make smoke`)
// against a local fake model server, types a message into the window with
// xdotool, waits for the reply, saves a screenshot and reads the
// conversation back from the workspace database after the app quits.
//
// It needs a display, xdotool and ImageMagick's import, so it is behind the
// build tag smoke: `go test ./...` leaves it out, `make smoke` and CI run
// it. Without $DISPLAY it skips, except under CI ($CI set), where it fails.
package smoke
