package ui

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// ProbeFrames makes the window log one line per painted frame to w, for
// wrasse-bench's window figures: "frame UNIXNANO CONVERSATION FIRST", where
// CONVERSATION is the id the chat shows during that frame (0: none) and
// FIRST is 1 when it shows that conversation's first message at the top.
//
// Fyne has no paint callback, so the probe is a 1×1 transparent raster
// laid over the window: the GL painter calls its generator while it paints
// a frame, and only after the raster was refreshed. The generator logs the
// time and asks for another refresh, so every tick of the driver's loop
// paints and logs: the intervals between lines are frame times, including
// whatever the chat did on the UI goroutine in between. Painting every
// frame is the worst case (a real window paints only when something
// changed), which is what scrolling and streaming do anyway.
func (s *Shell) ProbeFrames(w io.Writer) {
	var probe *canvas.Raster
	pixel := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	pixel.Set(0, 0, color.Transparent)
	probe = canvas.NewRaster(func(int, int) image.Image {
		first := 0
		if f, ok := s.chat.(interface{ ShowsFirst() bool }); ok && f.ShowsFirst() {
			first = 1
		}
		fmt.Fprintf(w, "frame %d %d %d\n", time.Now().UnixNano(), uint64(s.chat.Current()), first)
		// Not from inside the paint: queue the next refresh.
		go s.env.Do(probe.Refresh)
		return pixel
	})
	probe.Resize(fyne.NewSize(1, 1))
	s.content = container.NewStack(s.content, container.NewWithoutLayout(probe))
	s.env.Window.SetContent(s.content)
}
