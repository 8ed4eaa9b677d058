package chat

import (
	"encoding/json"
	"strings"
	"testing"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// A code-mode program's card shows its Go source; the calls it made
// follow it, one card each, nested under it.
func TestCodeModeNestsInnerCalls(t *testing.T) {
	h := newHarness(t)
	src := "package main\n\nfunc main() {\n\ta, _ := calc_eval(CalcEvalArgs{Expression: \"6*7\"})\n\tb, _ := calc_eval(CalcEvalArgs{Expression: \"2+2\"})\n\tfmt.Println(a, b)\n}\n"
	args, _ := json.Marshal(map[string]string{"program": src})
	h.model.Reply(pt.ToolCall("run_go", string(args)))
	h.model.Reply(pt.Text("Both done."))
	h.send("compute two things")
	h.idle()

	tools := h.rowsOf(rowTool)
	var got []string
	for _, r := range tools {
		k := r.tool.name
		if r.nested() {
			k = "  " + k
		}
		got = append(got, k)
	}
	if strings.Join(got, ",") != "run_go,  calc_eval,  calc_eval" {
		t.Fatalf("tool cards %q; want run_go with two calc_eval nested under it; first: %+v", got, *tools[0].tool)
	}
	prog := tools[0].tool
	if !prog.done || prog.isError || !strings.Contains(prog.result, "42") {
		t.Errorf("program card %+v", *prog)
	}
	for _, want := range []string{"calc_eval(CalcEvalArgs{Expression: \"6*7\"})", `{"expression":"2+2"}`} {
		if !h.shows(want) {
			t.Errorf("the window does not show %q; it shows:\n%s", want, h.texts())
		}
	}
	if h.shows(`{"program":`) {
		t.Error("the program card shows its arguments as JSON, not as code")
	}
	// Nested cards are drawn indented; the program's is not.
	nested, flat := 0, 0
	for _, o := range h.visible() {
		v, ok := o.(*rowView)
		if !ok || v.key.r == nil || v.key.r.kind != rowTool || v.shown == nil {
			continue
		}
		x := v.shown.Position().X
		switch {
		case v.key.r.nested() && x > 0 && v.indent == x:
			nested++
		case !v.key.r.nested() && x == 0:
			flat++
		default:
			t.Errorf("card %s (nested %v) at x = %v, indent %v", v.key.r.tool.name, v.key.r.nested(), x, v.indent)
		}
	}
	if nested != 2 || flat != 1 {
		t.Errorf("%d nested and %d flat cards drawn; want 2 and 1", nested, flat)
	}
}

// The export quotes a program's calls once more, under its call, and shows
// the program as Go.
func TestExportNestsInnerCalls(t *testing.T) {
	prog, _ := json.Marshal(map[string]string{"program": "package main\n\nfunc main() {}\n"})
	events := []store.Event{
		{Seq: 1, Type: store.EventUserMessage, Text: "go"},
		{Seq: 2, Type: store.EventToolCall, ToolCallID: "c1", ToolName: "run_go", Arguments: prog},
		{Seq: 3, Type: store.EventToolCall, ToolCallID: "c1.1", ToolName: "calc_eval", Arguments: json.RawMessage(`{"expression":"1+1"}`), ParentCallID: "c1"},
		{Seq: 4, Type: store.EventToolResult, ToolCallID: "c1.1", ToolName: "calc_eval", Text: "2", ParentCallID: "c1"},
		{Seq: 5, Type: store.EventToolResult, ToolCallID: "c1", ToolName: "run_go", Text: "done"},
	}
	got := exportMarkdown("t", events)
	want := "\n> **Tool call** `run_go`\n>\n> ```go\n> package main\n>\n> func main() {}\n> ```\n" +
		">\n>> **Tool call** `calc_eval`\n>>\n>> ```json\n>> {\"expression\":\"1+1\"}\n>> ```\n" +
		">>\n>> Result:\n>>\n>> ```\n>> 2\n>> ```\n" +
		">\n> Result:\n>\n> ```\n> done\n> ```\n"
	if !strings.Contains(got, want) {
		t.Errorf("export:\n%s\nwant it to contain:\n%s", got, want)
	}
}
