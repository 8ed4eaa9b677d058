package ui

import (
	"bytes"
	"compress/gzip"
	"image"
	"io"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// The release runs once per armed paint: at the first frame, then only
// after arm, however often the raster is painted in between.
func TestMemoryReleaseRunsOncePerArmedPaint(t *testing.T) {
	test.NewTempApp(t)
	released := 0
	m := newMemoryRelease(func() { released++ })
	paint := func() image.Image { return m.raster.Generator(1, 1) }

	steps := []struct {
		name string
		arm  bool
		want int
	}{
		{name: "first frame", want: 1},
		{name: "a repaint without a change", want: 1},
		{name: "the frame after opening a conversation", arm: true, want: 2},
		{name: "another repaint", want: 2},
	}
	for _, s := range steps {
		if s.arm {
			m.arm()
		}
		if img := paint(); img.Bounds().Dx() != 1 {
			t.Fatalf("%s: the probe is %v, want 1×1", s.name, img.Bounds())
		}
		if released != s.want {
			t.Errorf("%s: %d releases, want %d", s.name, released, s.want)
		}
	}
}

// The shell lays the hook over the window and the window's first frame
// releases memory.
func TestShellReleasesMemoryAfterTheFirstFrame(t *testing.T) {
	h := newHarness(t, nil)
	if !contains(h.win.Content(), h.shell.memory.raster) {
		t.Fatal("the memory hook is not in the window, so it is never painted")
	}
	released := 0
	h.shell.memory.release = func() { released++ }
	h.shell.memory.raster.Generator(1, 1)
	if released != 1 {
		t.Errorf("%d releases after the first frame, want 1", released)
	}
}

// Ctrl+N leaves the conversation shown, whose rows are then garbage (a
// long one's, megabytes): the next frame returns the memory, as opening
// another conversation from the sidebar does.
func TestNewChatShortcutReleasesMemory(t *testing.T) {
	h := newHarness(t, nil)
	released := 0
	h.shell.memory.release = func() { released++ }
	h.shell.memory.raster.Generator(1, 1) // the first frame's
	h.shell.newChat()
	h.shell.memory.raster.Generator(1, 1)
	if released != 2 {
		t.Errorf("%d releases after the first frame and a new chat, want 2", released)
	}
}

// contains reports whether o is in the tree under root.
func contains(root, o fyne.CanvasObject) bool {
	if root == o {
		return true
	}
	if c, ok := root.(*fyne.Container); ok {
		for _, child := range c.Objects {
			if contains(child, o) {
				return true
			}
		}
	}
	return false
}

// ProfileHeap writes one profile after the first release and keeps the
// release itself: later armed paints release again without profiling.
func TestProfileHeapWritesOnceAfterTheRelease(t *testing.T) {
	h := newHarness(t, nil)
	released := 0
	h.shell.memory.release = func() { released++ }
	var profile bytes.Buffer
	var results []error
	h.shell.ProfileHeap(&profile, func(err error) { results = append(results, err) })
	paint := func() { h.shell.memory.raster.Generator(1, 1) }

	paint()
	if released != 1 || len(results) != 1 || results[0] != nil {
		t.Fatalf("after the first frame: %d releases, results %v; want 1 and [<nil>]", released, results)
	}
	// pprof writes a gzip-compressed protocol buffer.
	if zr, err := gzip.NewReader(bytes.NewReader(profile.Bytes())); err != nil {
		t.Fatalf("the profile is not gzip data: %v", err)
	} else if _, err := io.ReadAll(zr); err != nil {
		t.Fatalf("the profile does not decompress: %v", err)
	}
	size := profile.Len()
	h.shell.memory.arm()
	paint()
	if released != 2 || len(results) != 1 || profile.Len() != size {
		t.Errorf("after a second armed paint: %d releases, %d results, profile %d → %d bytes; want 2, 1, unchanged", released, len(results), size, profile.Len())
	}
}
