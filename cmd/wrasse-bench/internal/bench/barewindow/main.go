// Command barewindow is the window bench's baseline: a bare Fyne window of
// Wrasse's size, drawing the two text styles Wrasse's idle window draws
// (regular labels, a bold button label), so the bench can show what the
// toolkit alone costs beside Wrasse's idle memory under the same X server
// and software OpenGL. wrasse-bench builds it with `go build`; it is not
// meant to be run by hand.
//
// Usage: barewindow FRAMELOG
//
// It logs its frames to FRAMELOG as Wrasse does under WRASSE_FRAME_LOG
// ("frame UNIXNANO 0", one line per painted frame, the window painting
// every tick), and returns the heap's free pages after its first frame as
// Wrasse's window does (ui/memory.go), so both are read in the same state.
package main

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// The size ui.Shell gives Wrasse's window.
const width, height = 1100, 720

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: barewindow FRAMELOG (wrasse-bench runs it)")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "barewindow:", err)
		os.Exit(1)
	}
}

func run(frameLog string) error {
	// As cmd/wrasse's openWindow: no allocation sampling, whose stack
	// unwinding pages in the binary's unwind tables.
	runtime.MemProfileRate = 0
	log, err := os.Create(frameLog)
	if err != nil {
		return fmt.Errorf("open the frame log %s: %w", frameLog, err)
	}
	defer log.Close()

	a := app.NewWithID("app.wrasse.bench.barewindow")
	w := a.NewWindow("Wrasse bench: bare window")
	w.SetMaster()

	// The frame probe and the memory release in one 1×1 raster, as
	// ui.Shell.ProbeFrames and ui's memoryRelease: Fyne has no paint
	// callback, but the painter calls a raster's generator while it paints.
	var probe *canvas.Raster
	var release sync.Once
	pixel := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	pixel.Set(0, 0, color.Transparent)
	probe = canvas.NewRaster(func(int, int) image.Image {
		fmt.Fprintf(log, "frame %d 0\n", time.Now().UnixNano())
		release.Do(func() { go debug.FreeOSMemory() })
		// Not from inside the paint: queue the next refresh.
		go fyne.Do(probe.Refresh)
		return pixel
	})
	probe.Resize(fyne.NewSize(1, 1))

	content := container.NewBorder(nil, widget.NewButton("Send", func() {}), widget.NewLabel("Conversations"), nil,
		widget.NewLabel("Type a message to start a conversation."))
	w.SetContent(container.NewStack(content, container.NewWithoutLayout(probe)))
	w.Resize(fyne.NewSize(width, height))
	w.ShowAndRun()
	return nil
}
