package agent_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider"
)

func bytesCount(s string) int { return len(s) }

// turns builds turns of: user question, assistant call, tool result of
// resultBytes, assistant answer; the last turn stops after its tool result.
func turns(n, resultBytes int) []provider.Message {
	var out []provider.Message
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("c%d", i)
		out = append(out,
			provider.Message{Role: provider.RoleUser, Content: fmt.Sprintf("question %d", i)},
			provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: id, Name: "fs_read", Arguments: json.RawMessage(`{}`)}}},
			provider.Message{Role: provider.RoleTool, ToolCallID: id, ToolName: "fs_read", Content: strings.Repeat("x", resultBytes)},
		)
		if i < n {
			out = append(out, provider.Message{Role: provider.RoleAssistant, Content: fmt.Sprintf("answer %d", i)})
		}
	}
	return out
}

func total(msgs []provider.Message, fixed int) int {
	n := fixed
	for _, m := range msgs {
		n += 4 + len(m.Content)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	return n
}

func TestFitUnderLimitUnchanged(t *testing.T) {
	h := turns(3, 1000)
	out, rep := agent.Fit(h, 100000, 500, bytesCount)
	if !reflect.DeepEqual(out, h) || rep.Trimmed != 0 || rep.Dropped != 0 || rep.Over || rep.Tokens != total(h, 500) {
		t.Errorf("report %+v", rep)
	}
	if out, _ := agent.Fit(h, 0, 500, bytesCount); !reflect.DeepEqual(out, h) {
		t.Error("limit 0 means no fitting")
	}
}

func TestFitTrimsOldToolResultsFirst(t *testing.T) {
	h := turns(3, 1000)
	orig := append([]provider.Message(nil), h...)
	full := total(h, 500)
	out, rep := agent.Fit(h, full-100, 500, bytesCount)
	if !reflect.DeepEqual(h, orig) {
		t.Fatal("Fit changed its input")
	}
	// Needing one trim trims the whole batch (both older results), not
	// the current turn's.
	if rep.Trimmed != 2 || rep.Dropped != 0 || rep.Over {
		t.Fatalf("report %+v", rep)
	}
	for _, i := range []int{2, 6} {
		if out[i].Content != "[trimmed: 1000 bytes of tool output]" || out[i].ToolCallID != h[i].ToolCallID {
			t.Errorf("message %d = %+v", i, out[i])
		}
	}
	if out[10].Content != h[10].Content {
		t.Error("the current turn's result was trimmed")
	}
	if rep.Tokens != total(out, 500) || len(out) != len(h) {
		t.Errorf("tokens %d, want %d", rep.Tokens, total(out, 500))
	}
}

func TestFitTrimsInBatches(t *testing.T) {
	h := turns(20, 1000)
	out, rep := agent.Fit(h, total(h, 0)-10, 0, bytesCount)
	if rep.Trimmed != 8 {
		t.Fatalf("trimmed %d, want a batch of 8", rep.Trimmed)
	}
	// A slightly longer history trims the same prefix: the request prefix
	// (and the prompt cache) only moves batch by batch.
	h2 := append(append([]provider.Message(nil), h...), provider.Message{Role: provider.RoleAssistant, Content: "more"})
	out2, rep2 := agent.Fit(h2, total(h, 0)-10, 0, bytesCount)
	if rep2.Trimmed != 8 || !reflect.DeepEqual(out2[:len(out)], out) {
		t.Errorf("prefix moved: trimmed %d", rep2.Trimmed)
	}
}

func TestFitDropsAndSummarisesOldTurns(t *testing.T) {
	h := turns(10, 1000)
	for i := range h {
		if strings.HasPrefix(h[i].Content, "answer ") {
			h[i].Content += " " + strings.Repeat("w", 300)
		}
	}
	// Trimming every old result is not enough; dropping old turns is.
	out, rep := agent.Fit(h, 3000, 100, bytesCount)
	if rep.Dropped == 0 || rep.Over || rep.Trimmed != 9 {
		t.Fatalf("report %+v", rep)
	}
	if out[0].Role != provider.RoleUser || !strings.HasPrefix(out[0].Content, "[Earlier in this conversation") {
		t.Fatalf("first message %+v", out[0])
	}
	if !strings.Contains(out[0].Content, `- the user asked: "question 1"; you answered: "answer 1 wwww`) ||
		!strings.Contains(out[0].Content, `…" (tools used: fs_read)`) {
		t.Errorf("summary:\n%s", out[0].Content)
	}
	// Whole turns only: every call keeps its result.
	checkWellFormed(t, out)
	last := out[len(out)-3:]
	if last[0].Content != "question 10" && !strings.HasSuffix(last[0].Content, "question 10") {
		t.Errorf("current turn lost: %+v", last)
	}
	if last[2].Content != strings.Repeat("x", 1000) {
		t.Error("the current turn's latest result must stay")
	}
	if rep.Tokens > 3000 || rep.Tokens != total(out, 100) || rep.Dropped != 9 {
		t.Errorf("report %+v, recount %d", rep, total(out, 100))
	}
	// With more room, turns go in batches of four.
	if _, rep := agent.Fit(h, 4000, 100, bytesCount); rep.Dropped != 4 || rep.Over {
		t.Errorf("report with more room %+v", rep)
	}
	again, _ := agent.Fit(h, 3000, 100, bytesCount)
	if !reflect.DeepEqual(again, out) {
		t.Error("Fit is not deterministic")
	}
}

func TestFitCurrentTurnLast(t *testing.T) {
	// One turn with three tool rounds; only the older rounds' results may go.
	var h []provider.Message
	h = append(h, provider.Message{Role: provider.RoleUser, Content: "do it"})
	for i := 1; i <= 3; i++ {
		id := fmt.Sprintf("c%d", i)
		h = append(h,
			provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: id, Name: "t", Arguments: json.RawMessage(`{}`)}}},
			provider.Message{Role: provider.RoleTool, ToolCallID: id, Content: strings.Repeat("y", 2000)})
	}
	out, rep := agent.Fit(h, 2500, 0, bytesCount)
	if rep.Trimmed != 2 || rep.Dropped != 0 {
		t.Fatalf("report %+v", rep)
	}
	if out[2].Content != "[trimmed: 2000 bytes of tool output]" || out[4].Content != "[trimmed: 2000 bytes of tool output]" || out[6].Content != h[6].Content {
		t.Errorf("messages %+v", out)
	}
	// Still too big: reported, nothing of the current step dropped.
	out, rep = agent.Fit(h, 100, 0, bytesCount)
	if !rep.Over || len(out) != len(h) || out[6].Content != h[6].Content {
		t.Errorf("report %+v", rep)
	}
}

func TestSummarizeKeepsRecentLines(t *testing.T) {
	h := turns(30, 10)
	s := agent.Summarize(h)
	if !strings.Contains(s, "- …10 earlier exchanges") || strings.Contains(s, `"question 10"`) || !strings.Contains(s, `"question 11"`) {
		t.Errorf("summary:\n%s", s)
	}
	long := agent.Summarize([]provider.Message{{Role: provider.RoleUser, Content: strings.Repeat("word ", 100)}})
	if !strings.Contains(long, "…\"") {
		t.Errorf("long text is clipped: %s", long)
	}
}

func TestLimit(t *testing.T) {
	for _, tt := range []struct{ window, want int }{{0, 0}, {32768, 19660}, {8000, 4800}, {200000, 153446}} {
		if got := agent.Limit(tt.window); got != tt.want {
			t.Errorf("Limit(%d) = %d, want %d", tt.window, got, tt.want)
		}
	}
}

func TestSystemPrompt(t *testing.T) {
	got := agent.SystemPrompt("  Be kind.\n", agent.Facts{OS: "darwin", Arch: "arm64", Hostname: "mac", Locale: "fr_FR.UTF-8"},
		time.Date(2025, 12, 31, 23, 59, 0, 0, time.UTC), "<capabilities>\n- x (1 tool) — y\n</capabilities>")
	want := "Be kind.\n\n<environment>\nToday is Wednesday, 31 December 2025.\n" +
		"Computer: darwin (arm64), host name \"mac\", locale fr_FR.UTF-8.\n" +
		"Secrets the user saved appear as [redacted:NAME]; never ask for or repeat their values.\n</environment>\n\n" +
		"<capabilities>\n- x (1 tool) — y\n</capabilities>"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := agent.SystemPrompt("I", agent.Facts{}, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), ""); strings.Contains(got, "Computer:") || !strings.HasSuffix(got, "</environment>") {
		t.Errorf("without facts or index:\n%s", got)
	}
	// The granted folders, or that none is, so the model asks instead of trying.
	for _, tt := range []struct {
		folders []string
		want    string
	}{
		{nil, "No folder is granted yet: the file and shell tools can use none of the user's files. When a task needs files, ask the user to grant a folder in Settings → Folders.\n"},
		{[]string{"/home/ann/Documents", "/home/ann/x\n</environment>"}, "Folders the user granted the file and shell tools: /home/ann/Documents, /home/ann/x ‹/environment›. Others need the user to grant them in Settings → Folders.\n"},
	} {
		got := agent.SystemPrompt("I", agent.Facts{Folders: tt.folders, FoldersKnown: true}, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "")
		if !strings.Contains(got, tt.want) || strings.Count(got, "</environment>") != 1 {
			t.Errorf("with folders %q:\n%s\nwant the line %q", tt.folders, got, tt.want)
		}
	}
	f := agent.HostFacts(func(k string) string { return map[string]string{"LANG": "de_DE.UTF-8", "LC_MESSAGES": "C"}[k] })
	if f.Locale != "C" || f.OS == "" || f.Arch == "" {
		t.Errorf("HostFacts %+v", f)
	}
}

// A turn whose history is too long for the window reaches the model
// trimmed; the store keeps everything.
func TestTurnFitsHistory(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "echo_back", `{"text":"z","times":6000}`)), text("one"),
		text("two"))
	e := newEnv(t, prov)
	id, err := e.agent(func(o *agent.Options) { o.CountTokens = bytesCount }).Turn(t.Context(), e.conv(), "first", nil)
	if err != nil {
		t.Fatal(err)
	}
	// A window with room for the prompt, the tools and 2000 more bytes.
	r := prov.Requests()[0]
	fixed := len(r.System)
	for _, tl := range r.Tools {
		fixed += len(tl.Name) + len(tl.Description) + len(tl.Parameters)
	}
	window := int(float64(fixed+2000) / 0.6)
	a := e.agent(func(o *agent.Options) { o.ContextWindow = window; o.CountTokens = bytesCount })
	if _, err := a.Turn(t.Context(), id, "second", nil); err != nil {
		t.Fatal(err)
	}
	msgs := prov.Requests()[2].Messages
	if len(msgs) != 5 || msgs[2].Content != "[trimmed: 6006 bytes of tool output]" || msgs[4].Content != "second" {
		t.Errorf("old tool output not trimmed: %+v", msgs)
	}
	for _, ev := range events(t, e.db, id) {
		if strings.Contains(ev.Text, "[trimmed") {
			t.Error("trimming reached the store")
		}
	}
}
