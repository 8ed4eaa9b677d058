package ui

import (
	"image"
	"image/color"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// memoryRelease hands the heap's free pages back to the OS once a burst of
// allocation has been painted: after the window's first frame, after
// the first frame that shows a conversation just opened, and when the
// chat has been idle a moment after turns (a run of turns leaves the heap
// at its collection target, twice what is live). Building the
// window (parsing fonts, listing a thousand capabilities) and opening a
// long conversation (decoding and measuring its messages) leave tens of
// megabytes of garbage and emptied spans behind; the Go scavenger returns
// them only gradually, so an idle window would keep them resident for
// minutes. The memory is garbage: nothing live is paged out.
//
// Fyne has no paint callback, so the hook is a 1×1 transparent raster over
// the window (as in ProbeFrames): the painter calls its generator when it
// draws it, in the first frame and in the first frame after a Refresh.
type memoryRelease struct {
	raster *canvas.Raster
	// armed: a release is due at the raster's next paint. The generator
	// runs inside the paint, arm on the UI goroutine.
	armed atomic.Bool
	// release returns the free memory; it must not block the paint.
	release func()
}

// newMemoryRelease returns a hook armed for the first frame. release runs
// once per armed paint.
func newMemoryRelease(release func()) *memoryRelease {
	m := &memoryRelease{release: release}
	pixel := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	pixel.Set(0, 0, color.Transparent)
	m.raster = canvas.NewRaster(func(int, int) image.Image {
		if m.armed.CompareAndSwap(true, false) {
			m.release()
		}
		return pixel
	})
	m.raster.Resize(fyne.NewSize(1, 1))
	m.armed.Store(true)
	return m
}

// arm asks for a release after the next painted frame (call on the UI
// goroutine, after the change that allocated).
func (m *memoryRelease) arm() {
	m.armed.Store(true)
	m.raster.Refresh()
}

// freeOSMemory is the production release: a full collection that returns
// every free page, on its own goroutine so the frame is not held up.
func freeOSMemory(goFn func(func())) func() {
	return func() { goFn(debug.FreeOSMemory) }
}

// ProfileHeap makes the window write a pprof heap profile to w once,
// after its first frame's free pages are returned, and then call done with
// the outcome: how the idle window's heap is studied (WRASSE_HEAP_PROFILE,
// cmd/wrasse). Call it before the window shows.
func (s *Shell) ProfileHeap(w io.Writer, done func(error)) {
	release := s.memory.release
	var once sync.Once
	s.memory.release = func() {
		release()
		s.env.Go(func() {
			once.Do(func() {
				runtime.GC() // the profile shows the heap as of the last collection
				done(pprof.Lookup("heap").WriteTo(w, 0))
			})
		})
	}
}
