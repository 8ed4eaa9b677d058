package settings

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// indexPreview shows the capability index exactly as the model sees it at
// the start of a fresh conversation, with its token count.
type indexPreview struct {
	env   *bridge.Env
	about *widget.Label
	block *codeBlock
	obj   fyne.CanvasObject
}

func newIndexPreview(env *bridge.Env) *indexPreview {
	v := &indexPreview{env: env}
	v.about = widget.NewLabel("")
	v.about.Wrapping = fyne.TextWrapWord
	// A bounded block: the view gives it all the room there is, and a long
	// index scrolls inside instead of making the window taller.
	v.block = newCodeBlock(env.Copy, 100)
	v.obj = container.NewBorder(v.about, nil, nil, nil, v.block)
	return v
}

func (v *indexPreview) Object() fyne.CanvasObject { return v.obj }

// Load renders the index for a fresh session (in memory, no I/O).
func (v *indexPreview) Load() {
	reg := v.env.Core.Capabilities()
	idx := reg.Index(reg.NewSession("preview", nil))
	n := cerebellum.EstimateTokens(idx)
	v.about.SetText(fmt.Sprintf("The capability index at the start of a new conversation: about %d tokens (estimated, as the index budget counts them). Core and pinned capabilities are loaded; the model finds the others with tool_search.", n))
	v.block.Set(fmt.Sprintf("Index · %d tokens", n), idx)
}

// Text is the index shown.
func (v *indexPreview) Text() string { return v.block.Text() }
