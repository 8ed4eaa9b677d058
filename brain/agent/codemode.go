package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/codemode"
)

// Code mode: the core tool run_go runs a Go program whose functions are
// the conversation's tools (plugins/codemode). The registry serves run_go
// through CodeMode, a native runtime; the agent hands it, in the call's
// context, the running turn, so that each call the program makes takes
// exactly the path of a call the model makes (runCall: the gate, the
// approver, the registry's loading, validation and caps) and is stored
// as its own events under the program's call (store.Event.ParentCallID).

// Names of the code-mode capability and its tool.
const (
	CodeModeCapability = "codemode"
	CodeModeTool       = "run_go"
)

// codeHostKey carries the *codeHost of a run_go call in its context.
type codeHostKey struct{}

// codeHost serves the inner calls of one run_go call.
type codeHost struct {
	t      *turn
	parent string
	n      int
}

// callContext is the context a call runs in: for run_go, with the turn
// that serves its program's calls.
func (t *turn) callContext(c provider.ToolCall) context.Context {
	if c.Name != CodeModeTool || t.parent != "" {
		return t.ctx
	}
	return context.WithValue(t.ctx, codeHostKey{}, &codeHost{t: t, parent: c.ID})
}

// tools are the tools a program gets functions for: what the model may
// call now (but not run_go itself), and any other installed tool the
// program names, which loads on its first call as a direct call would.
func (h *codeHost) tools(src string) []codemode.Tool {
	reg := h.t.a.opts.Registry
	defs := reg.Tools(h.t.sess)
	out := make([]codemode.Tool, 0, len(defs))
	have := map[string]bool{CodeModeTool: true}
	for _, d := range defs {
		if !have[d.Name] {
			have[d.Name] = true
			out = append(out, codemode.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters})
		}
	}
	snap := reg.Snapshot()
	for _, name := range identifiers(src) {
		if have[name] {
			continue
		}
		if tl, c, ok := snap.Tool(name); ok && c.Usable() {
			have[name] = true
			out = append(out, codemode.Tool{Name: tl.Name, Description: tl.Description, Parameters: tl.Parameters})
		}
	}
	return out
}

// identifiers lists the distinct identifiers of a Go source, in order.
func identifiers(src string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(src)), []byte(src), nil, 0)
	seen := map[string]bool{}
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT && !seen[lit] {
			seen[lit] = true
			out = append(out, lit)
		}
	}
}

// errNested refuses run_go inside run_go.
var errNested = errors.New("run_go cannot be called from a program; call the tools directly")

// call runs one inner call through runCall, on the turn's goroutine (the
// runner calls it from Run, which the registry runs there).
func (h *codeHost) call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	t := h.t
	if tool == CodeModeTool {
		return "", errNested
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%s: %w", tool, context.Cause(ctx))
	}
	h.n++
	c := provider.ToolCall{ID: fmt.Sprintf("%s.%d", h.parent, h.n), Name: tool, Arguments: args}
	t.parent = h.parent
	defer func() { t.parent = "" }()
	if _, err := t.record(store.Event{Type: store.EventToolCall, ToolCallID: c.ID, ToolName: c.Name, Arguments: c.Arguments}); err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	if err := t.runCall(c); err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	for i := len(t.events) - 1; i >= 0; i-- {
		e := t.events[i]
		if e.Type == store.EventToolResult && e.ToolCallID == c.ID {
			if e.IsError {
				return "", errors.New(e.Text)
			}
			return e.Text, nil
		}
	}
	return "", fmt.Errorf("%s: the call left no result", tool)
}

// codeModeDefs gives run_go's description the signatures of the tools a
// program has, so the model knows its functions; its size counts toward
// the request like any tool's. In the stable layout it lists core and
// pinned tools only: listing the loaded ones would change the first tool
// of the array with every load, and with it the whole cached prefix; the
// result of the call that loads a capability gives its functions instead
// (codeModeLoadNote). LayoutLegacy lists every tool loaded now.
func (t *turn) codeModeDefs(defs []cerebellum.ToolDef, snap *cerebellum.Snapshot) []cerebellum.ToolDef {
	stable := t.a.opts.Layout != LayoutLegacy
	at := -1
	tools := make([]codemode.Tool, 0, len(defs))
	for i, d := range defs {
		if d.Name == CodeModeTool {
			at = i
			continue
		}
		if stable && !alwaysLoaded(snap, d.Capability) {
			continue
		}
		tools = append(tools, codemode.Tool{Name: d.Name, Parameters: d.Parameters})
	}
	if at < 0 {
		return defs
	}
	out := append([]cerebellum.ToolDef(nil), defs...)
	out[at].Description = CodeModeDescription(defs[at].Description, tools)
	return out
}

// CodeModeDescription is run_go's description with the functions a
// program gets for tools.
func CodeModeDescription(base string, tools []codemode.Tool) string {
	return strings.TrimSpace(base) + "\nFunctions now (? = optional field; others: search, activate, then call):\n" +
		strings.TrimSpace(codemode.Signatures(tools))
}

// CodeMode is the native runtime of run_go. It runs programs with its
// Runner; outside a turn (no agent to serve inner calls) it refuses.
type CodeMode struct {
	runner *codemode.Runner
}

var _ cerebellum.Runtime = (*CodeMode)(nil)

// NewCodeMode returns run_go's runtime.
func NewCodeMode(r *codemode.Runner) *CodeMode {
	if r == nil {
		r = &codemode.Runner{}
	}
	return &CodeMode{runner: r}
}

// Close implements cerebellum.Runtime.
func (m *CodeMode) Close() error { return nil }

// Call runs one program.
func (m *CodeMode) Call(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	if tool != CodeModeTool {
		return cerebellum.Result{}, fmt.Errorf("%w: %s has no tool %q", cerebellum.ErrUnknownTool, CodeModeCapability, tool)
	}
	var a struct {
		Program string `json:"program"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return cerebellum.Result{Content: "arguments must be a JSON object with program: " + err.Error(), IsError: true}, nil
	}
	h, _ := ctx.Value(codeHostKey{}).(*codeHost)
	if h == nil {
		return cerebellum.Result{Content: "run_go runs only inside a conversation, where its calls can be checked and approved; " +
			"call the tools one by one here", IsError: true}, nil
	}
	res, err := m.runner.Run(ctx, codemode.Program{Source: a.Program, Tools: h.tools(a.Program)}, h.call)
	return programResult(res, err), nil
}

// programResult is what the model reads: the output, and how the program
// ended when it failed.
func programResult(res codemode.Result, err error) cerebellum.Result {
	out := res.Output
	if err == nil {
		if strings.TrimSpace(out) == "" {
			out = fmt.Sprintf("(the program printed nothing; it made %d tool calls)", res.Calls)
		}
		return cerebellum.Result{Content: out}
	}
	var b strings.Builder
	if out != "" {
		b.WriteString(out)
		if !strings.HasSuffix(out, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("---\n")
	}
	b.WriteString(err.Error())
	if errors.Is(err, codemode.ErrOutputLimit) {
		// The start of the output is the result; the stop is a note.
		return cerebellum.Result{Content: b.String(), Truncated: true}
	}
	return cerebellum.Result{Content: b.String(), IsError: true}
}
