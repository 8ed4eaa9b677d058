package main

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// callText shows a call the terminal asks about in full, as it will run:
// what "for this chat" covers is the exact command, so the person must
// see all of it, not gate.Summarize's one line (spaces collapsed, cut at
// 200 characters). Control characters, bidi overrides and the like are
// shown as escapes (gate.Visible): a \r that would move the cursor back
// over the line reads \r. A call with one single-line argument reads
// "tool key=value"; otherwise each argument gets a line of its own, and
// a value with several lines (a script) shows them indented, one by one.
// Arguments that are not a JSON object fall back to the summary.
func callText(req gate.Request) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(req.Args, &obj) != nil || len(obj) == 0 {
		return gate.VisibleLine(req.Summary)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == "command") != (keys[j] == "command") {
			return keys[i] == "command"
		}
		return keys[i] < keys[j]
	})
	vals := make([]string, len(keys))
	multi := len(keys) > 1
	for i, k := range keys {
		var s string
		if json.Unmarshal(obj[k], &s) != nil {
			c, err := gate.CanonicalJSON(obj[k])
			if err != nil {
				c = obj[k]
			}
			s = string(c)
		}
		vals[i] = s
		multi = multi || strings.Contains(s, "\n")
	}
	tool := gate.VisibleLine(req.Tool)
	if !multi {
		return tool + " " + gate.VisibleLine(keys[0]) + "=" + gate.Visible(vals[0])
	}
	var b strings.Builder
	b.WriteString(tool)
	for i, k := range keys {
		b.WriteString("\n  " + gate.VisibleLine(k) + ":")
		if !strings.Contains(vals[i], "\n") {
			b.WriteString(" " + gate.Visible(vals[i]))
			continue
		}
		for _, line := range strings.Split(vals[i], "\n") {
			b.WriteString("\n    " + gate.Visible(line))
		}
	}
	return b.String()
}
