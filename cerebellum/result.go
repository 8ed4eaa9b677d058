package cerebellum

import (
	"fmt"
	"unicode/utf8"
)

func errorResult(err error) Result { return Result{Content: err.Error(), IsError: true} }

// CapResult cuts res.Content to at most limit bytes (at a UTF-8 boundary),
// ending with a note that says how much was cut and what to do; the note
// counts toward limit, so the result never exceeds it. limit <= 0 means no cap.
// It is the one result truncation: the registry applies it to every call,
// and the plugin host to what a plugin returns.
func CapResult(res Result, limit int) Result {
	total := len(res.Content)
	if limit <= 0 || total <= limit {
		return res
	}
	note := func(kept int) string {
		return fmt.Sprintf("\n\n[result cut to the first %d of %d bytes: %d bytes were cut. Ask for less, e.g. a narrower range or a filter.]", kept, total, total-kept)
	}
	kept := max(0, limit-len(note(total)))
	for kept > 0 && !utf8.RuneStart(res.Content[kept]) {
		kept--
	}
	res.Content = res.Content[:kept] + note(kept)
	if len(res.Content) > limit {
		// A cap smaller than the note: the note is ASCII, so any cut is valid UTF-8.
		res.Content = res.Content[:limit]
	}
	res.Truncated = true
	return res
}
