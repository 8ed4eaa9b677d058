package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// The card shows a command's control characters and bidi overrides as
// escapes, in the summary and the arguments: a \r that a label would
// hide does not make "ls\r# ; rm -f x" read as ls and a comment.
func TestApprovalCardShowsControlCharacters(t *testing.T) {
	h := newHarness(t)
	args, err := json.Marshal(map[string]string{"command": "ls\r# ; rm -f important.txt \u202e"})
	if err != nil {
		t.Fatal(err)
	}
	h.model.Reply(pt.ToolCall("shell_exec", string(args)))
	h.model.Reply(pt.Text("done"))
	h.send("list")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	texts := h.texts()
	for _, want := range []string{`command=ls\r# ; rm -f important.txt \u202e`, `{"command":"ls\r# ; rm -f important.txt \u202e"}`} {
		if !strings.Contains(texts, want) {
			t.Errorf("the card does not show %q; window shows:\n%s", want, texts)
		}
	}
	if strings.Contains(texts, "\r") || strings.Count(texts, "\u202e") > 1 { // (the transcript's row shows the arguments as they came)
		t.Errorf("the window shows a raw control character:\n%q", texts)
	}
	if !h.showsWrapped("the checker cannot read it") {
		t.Errorf("the card does not say why it asks every time:\n%s", texts)
	}
	test.Tap(h.button("Deny"))
	h.idle()
}
