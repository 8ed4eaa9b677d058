package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// maxPipedInput bounds a message or secret read from piped stdin.
const maxPipedInput = 1 << 20

// chatFlags are chat's own flags.
type chatFlags struct {
	conv    string
	id      store.ID
	over    assistant.Override
	retries int
	// resources are --resource SERVER:URI, attached to the message.
	resources resourceFlags
}

func chatFlagsOf(c *call) *chatFlags { return c.opts.(*chatFlags) }

// setupChat registers chat's flags and returns what runs it.
func setupChat(fs *flag.FlagSet, c *call) runFunc {
	f := &chatFlags{}
	c.opts = f
	fs.StringVar(&f.conv, "c", "", "continue conversation `ID` (e.g. c12)")
	fs.StringVar(&f.over.Provider, "provider", "", "model provider for this turn: ollama, openai (any OpenAI-compatible server) or anthropic")
	fs.StringVar(&f.over.BaseURL, "base-url", "", "API root for this turn, e.g. http://localhost:11434")
	fs.BoolVar(&f.over.SendKey, "send-key", false, "send the provider's API key to --base-url's host for this turn, though it is kept for another (in your own terminal while no window is open)")
	fs.StringVar(&f.over.Model, "model", "", "model name for this turn")
	fs.Var(&f.resources, "resource", "attach MCP server SERVER's resource `SERVER:URI` to the message (repeatable; see wrasse mcp resources SERVER)")
	fs.IntVar(&f.retries, "retries", provider.DefaultMaxRetries, "how many times to retry a request that failed for a passing reason (when no window holds the workspace)")
	c.retries = func() int {
		if f.retries <= 0 {
			return -1 // assistant.Options: negative is never, 0 the default
		}
		return f.retries
	}
	return runChat
}

// checkChat finds chat's usage errors before anything is opened.
func checkChat(c *call) error {
	f := chatFlagsOf(c)
	if p := f.over.Provider; p != "" && !slices.Contains(workspace.Providers(), p) {
		return usagef(c.cmd.path, "--provider must be ollama, openai or anthropic, not %q", p)
	}
	if err := workspace.CheckBaseURL(f.over.BaseURL); err != nil {
		return usagef(c.cmd.path, "--base-url: %v", err)
	}
	if f.conv != "" {
		id, err := store.ParseID(f.conv)
		if err != nil {
			return usagef(c.cmd.path, "-c: %v", err)
		}
		f.id = id
	}
	if strings.TrimSpace(strings.Join(c.args, " ")) == "" && (c.io.in == nil || interactive(c.io.in)) {
		return errNoMessage(c)
	}
	return nil
}

func errNoMessage(c *call) error {
	return usagef(c.cmd.path, "chat needs a message, e.g. wrasse chat \"what is in my Downloads folder?\" (or piped in)")
}

func runChat(ctx context.Context, app *assistant.App, c *call) error {
	f := chatFlagsOf(c)
	if f.over.SendKey && c.forwarded {
		return keyNotForwarded("--send-key", "send your API key to a host of its choosing",
			hint.Hint{Action: "Confirm sending your key to the new host on the window's Model page, or run this chat in your own terminal " + noOtherWrasse,
				Page: hint.PageModel, Target: "baseURL"})
	}
	message := strings.Join(c.args, " ")
	if strings.TrimSpace(message) == "" && c.io.in != nil && !interactive(c.io.in) {
		data, err := readLimited(c.io.in, maxPipedInput)
		if err != nil {
			return fmt.Errorf("read the message from stdin: %w", err)
		}
		message = string(data)
	}
	if strings.TrimSpace(message) == "" {
		return errNoMessage(c)
	}
	message, images, err := attachResources(ctx, app, message, f.resources)
	if err != nil {
		return err
	}
	var approver gate.Approver = gate.DenyAll{}
	if interactive(c.io.in) {
		approver = &promptApprover{in: bufio.NewReader(c.io.in), out: c.io.err}
	}
	out := newChatPrinter(c.io, c.g.json)
	id, err := app.Turn(ctx, f.id, message, assistant.TurnOptions{Approver: approver, Sink: out, Override: f.over, Images: images})
	return out.finish(id, err)
}

// interactive reports whether r is a terminal someone can type into.
// /dev/null is a character device too, so the file mode cannot tell: with
// stdin from /dev/null a chat is headless and confirmations are denied.
func interactive(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// chatPrinter shows a turn in the terminal: the reply on stdout as it
// streams, tool calls, results and approvals compactly on stderr. With
// --json it prints the turn's stored events at the end instead.
type chatPrinter struct {
	io        stdio
	json      bool
	lineStart bool
	events    []store.Event
	index     map[uint64]int
	shown     bool // an error event was printed
	// status: a status line is on a terminal's stderr (chatstatus.go).
	statusMu sync.Mutex
	status   bool
}

func newChatPrinter(io stdio, asJSON bool) *chatPrinter {
	return &chatPrinter{io: io, json: asJSON, lineStart: true, index: map[uint64]int{}}
}

func (p *chatPrinter) OnStep(int) {}

func (p *chatPrinter) OnText(_ uint64, delta string) {
	if p.json || delta == "" {
		return
	}
	p.clearStatus()
	fmt.Fprint(p.io.out, delta)
	p.lineStart = strings.HasSuffix(delta, "\n")
}

func (p *chatPrinter) OnEvent(e store.Event) {
	if i, ok := p.index[e.Seq]; ok {
		p.events[i] = e
	} else {
		p.index[e.Seq] = len(p.events)
		p.events = append(p.events, e)
	}
	if p.json {
		return
	}
	p.clearStatus()
	// A code-mode program's calls are indented under its run_go.
	ind := ""
	if e.ParentCallID != "" {
		ind = "  "
	}
	switch e.Type {
	case store.EventToolCall:
		p.endLine()
		fmt.Fprintf(p.io.err, "%s→ %s\n", ind, gate.Summarize(e.ToolName, e.Arguments))
	case store.EventToolResult:
		if e.IsError {
			fmt.Fprintf(p.io.err, "%s← %s failed: %s\n", ind, e.ToolName, firstLine(e.Text, 160))
			if e.Fix != nil && e.Fix.CommandLine() != "" {
				// Not "→", which marks a program's own calls.
				fmt.Fprintf(p.io.err, "%s  fix: %s\n", ind, e.Fix.CommandLine())
			}
		} else {
			fmt.Fprintf(p.io.err, "%s← %s: %s%s\n", ind, e.ToolName, sizeOf(e.Text), imagesNote(e.Images))
		}
	case store.EventApproval:
		if d := e.Decision; d != nil {
			word := map[store.DecisionKind]string{store.ApprovedOnce: "approved once", store.ApprovedConversation: "approved for this chat",
				store.Denied: "denied", store.Blocked: "blocked"}[d.Kind]
			if len(d.Hosts) > 0 {
				word += " (" + strings.Join(d.Hosts, ", ") + ")"
			}
			fmt.Fprintf(p.io.err, "  %s", word)
			if d.Kind == store.Denied || d.Kind == store.Blocked {
				fmt.Fprintf(p.io.err, ": %s", d.Reason)
			}
			fmt.Fprintln(p.io.err)
		}
	case store.EventError:
		p.endLine()
		fmt.Fprintf(p.io.err, "wrasse: %s\n", e.Text)
		p.shown = true
	}
}

// endLine ends a reply line on stdout before something else is printed.
func (p *chatPrinter) endLine() {
	if !p.lineStart {
		fmt.Fprintln(p.io.out)
		p.lineStart = true
	}
}

// finish prints the end of the turn and decides what run reports.
func (p *chatPrinter) finish(id store.ID, err error) error {
	if p.json {
		// A first turn no model answered leaves no conversation (id 0).
		doc := map[string]any{"conversation": nil, "events": p.events}
		if id != 0 {
			doc["conversation"] = id.String()
		}
		if err != nil {
			doc["error"] = err.Error()
		}
		if werr := writeJSON(p.io.out, doc); werr != nil {
			return werr
		}
		return err
	}
	p.endLine()
	if err == nil && !p.answered() {
		fmt.Fprintln(p.io.err, noTextNote)
	}
	if id != 0 { // 0: a first turn no model answered, not kept
		fmt.Fprintf(p.io.err, "(conversation %s; continue with: wrasse chat -c %s \"…\")\n", id, id)
	}
	if err != nil && p.shown {
		// The conversation's error event already said it; its hint remains.
		return &shownError{err}
	}
	return err
}

// noTextNote stands in for a final answer without text, so an empty
// reply does not look like a hang or a crash.
const noTextNote = "(the model returned no text)"

// answered reports whether the turn ended with reply text: the last event
// other than token usage is an assistant reply that says something.
func (p *chatPrinter) answered() bool {
	for i := len(p.events) - 1; i >= 0; i-- {
		e := p.events[i]
		if e.Type == store.EventUsage {
			continue
		}
		return e.Type == store.EventAssistantText && strings.TrimSpace(e.Text) != ""
	}
	return false
}

// firstLine is the first line of s, cut to max characters.
func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return cerebellum.OneLine(s, max)
}

func sizeOf(s string) string {
	n := len(s)
	switch {
	case n == 0:
		return "done (no output)"
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1024)
}

// promptApprover asks on the terminal. Reading happens on its own
// goroutine so a cancelled turn does not wait for the user.
type promptApprover struct {
	in  *bufio.Reader
	out io.Writer
	mu  sync.Mutex
}

type lineResult struct {
	line string
	err  error
}

func (p *promptApprover) Approve(ctx context.Context, req gate.Request) (gate.Approval, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if req.HostsOnly {
		fmt.Fprintf(p.out, "\nWrasse wants to reach a host this chat has not used: %s\n", gate.VisibleLine(req.Summary))
	} else {
		fmt.Fprintf(p.out, "\nWrasse wants to run: %s\n", callText(req))
	}
	for _, r := range req.Reasons {
		fmt.Fprintf(p.out, "  because it %s\n", gate.VisibleLine(strings.TrimPrefix(r, "it ")))
	}
	if covers := req.ChatCovers(); covers != "" {
		// Say exactly what the longer answer covers.
		fmt.Fprintf(p.out, "Allow? [o]nce / [c] for this chat, covering %s / [d]eny: ", gate.VisibleLine(covers))
	} else {
		fmt.Fprint(p.out, "Allow? [o]nce / [d]eny (this call asks every time: approving it for the chat would cover more than you see here): ")
	}
	ch := make(chan lineResult, 1)
	go func() {
		line, err := p.in.ReadString('\n')
		ch <- lineResult{line, err}
	}()
	select {
	case <-ctx.Done():
		fmt.Fprintln(p.out)
		return gate.Deny, ctx.Err()
	case r := <-ch:
		if r.err != nil && r.line == "" {
			fmt.Fprintln(p.out)
			return gate.Deny, fmt.Errorf("no answer (%v)", r.err)
		}
		a := parseApproval(r.line)
		if a == gate.ApproveConversation && req.OnceOnly {
			a = gate.ApproveOnce // approving more covers approving this call
		}
		return a, nil
	}
}

// parseApproval reads an answer; anything unclear denies.
func parseApproval(s string) gate.Approval {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "o", "once", "y", "yes":
		return gate.ApproveOnce
	case "c", "chat", "conversation", "a", "always":
		return gate.ApproveConversation
	}
	return gate.Deny
}

func readLimited(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("input is longer than %d bytes", limit)
	}
	return data, nil
}
