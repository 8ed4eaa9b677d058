package clipimage

import (
	"sync"

	"golang.design/x/clipboard"
)

// Reader reads the clipboard's picture. Its zero value is ready; the
// clipboard is opened on the first read, and a system without one (no X
// display) gives no picture instead of an error each time.
type Reader struct {
	once sync.Once
	ok   bool
}

// Image is the clipboard's picture as PNG, nil when it holds none or the
// system has no clipboard Wrasse can read.
func (r *Reader) Image() []byte {
	r.once.Do(func() { r.ok = clipboard.Init() == nil })
	if !r.ok {
		return nil
	}
	return clipboard.Read(clipboard.FmtImage)
}
