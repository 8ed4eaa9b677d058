package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/history"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// Names of the stored secrets and environment variables holding API keys.
const (
	secretOpenAI    = "openai_api_key"
	secretAnthropic = "anthropic_api_key"
	envOpenAI       = "OPENAI_API_KEY"
	envAnthropic    = "ANTHROPIC_API_KEY"
)

// maxPipedInput bounds a message or secret read from piped stdin.
const maxPipedInput = 1 << 20

// parseConversationID reads a conversation id as people write it ("c42" or "42").
func parseConversationID(s string) (store.ID, error) { return store.ParseID(s) }

func runChat(ctx context.Context, args []string, io stdio, getenv func(string) string) error {
	var g globalFlags
	fs := newFlagSet("chat", io)
	g.register(fs)
	conv := fs.String("c", "", "continue conversation `ID` (e.g. c12)")
	prov := fs.String("provider", "", "model provider for this run: openai (any OpenAI-compatible server) or anthropic")
	baseURL := fs.String("base-url", "", "API root for this run, e.g. http://localhost:11434/v1")
	model := fs.String("model", "", "model name for this run")
	retries := fs.Int("retries", provider.DefaultMaxRetries, "how many times to retry a request that failed for a passing reason")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *prov != "" && *prov != "openai" && *prov != "anthropic" {
		return fmt.Errorf("%w: --provider must be openai or anthropic, not %q", errUsage, *prov)
	}
	message := strings.Join(pos, " ")
	if strings.TrimSpace(message) == "" && !interactive(io.in) && io.in != nil {
		data, err := readLimited(io.in, maxPipedInput)
		if err != nil {
			return fmt.Errorf("read the message from stdin: %w", err)
		}
		message = string(data)
	}
	if strings.TrimSpace(message) == "" {
		return fmt.Errorf("%w: chat needs a message, e.g. wrasse chat \"what is in my Downloads folder?\"", errUsage)
	}
	var id store.ID
	if *conv != "" {
		if id, err = parseConversationID(*conv); err != nil {
			return err
		}
	}
	return withApp(ctx, g, getenv, func(a *app) error {
		if id != 0 {
			if _, err := a.db.GetConversation(id); errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("there is no conversation %s; see `wrasse conversations list`", id)
			} else if err != nil {
				return err
			}
		}
		cfg := a.cfg
		if *prov != "" && *prov != cfg.Provider {
			// Another provider: its own defaults, unless given too.
			cfg = workspace.Config{Provider: *prov, ContextWindow: a.cfg.ContextWindow, MaxSteps: a.cfg.MaxSteps}
		}
		if *baseURL != "" {
			cfg.BaseURL = *baseURL
		}
		if *model != "" {
			cfg.Model = *model
		}
		var approver gate.Approver = gate.DenyAll{}
		if interactive(io.in) {
			approver = &promptApprover{in: bufio.NewReader(io.in), out: io.err}
		}
		ag, err := a.newAgent(cfg.WithDefaults(), getenv, approver, *retries)
		if err != nil {
			return err
		}
		out := newChatPrinter(io, g.json)
		id, err = ag.Turn(ctx, id, message, out)
		return out.finish(id, err)
	})
}

// interactive reports whether r is a terminal someone can type into.
// /dev/null is a character device too, so the file mode cannot tell: with
// stdin from /dev/null a chat is headless and confirmations are denied.
func interactive(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newAgent wires the turn loop for cfg: the provider (wrapped with
// retries; retries <= 0 means none) or, when it cannot be built, none, so
// the conversation says what is missing; the identity file; this computer's
// facts. The desktop window can use it too, with its own Approver.
func (a *app) newAgent(cfg workspace.Config, getenv func(string) string, approver gate.Approver, retries int) (*agent.Agent, error) {
	opts := agent.Options{Registry: a.reg, Store: a.db, Approver: approver, Model: cfg.Model, MaxSteps: cfg.MaxSteps,
		ContextWindow: cfg.ContextWindow, Facts: agent.HostFacts(getenv), Logger: a.log,
		Identity: func() string {
			data, err := os.ReadFile(a.ws.Identity())
			if err != nil {
				return ""
			}
			return string(data)
		}}
	p, err := buildProvider(a, cfg, getenv)
	switch {
	case errors.Is(err, anthropic.ErrNoAPIKey):
		opts.SetupHint = fmt.Sprintf("There is no Anthropic API key: save one with `wrasse secrets set %s` or set %s. %s",
			secretAnthropic, envAnthropic, agent.DefaultSetupHint)
	case err != nil:
		opts.SetupHint = fmt.Sprintf("(%v) %s", err, agent.DefaultSetupHint)
	default:
		if !usesLocalOllama(cfg) {
			// The user chose this server: advice about Ollama is beside the point.
			opts.SetupHint = serverSetupHint
		}
		policy := provider.RetryPolicy{MaxRetries: retries, Logger: a.log}
		if retries <= 0 {
			policy.MaxRetries = -1
		}
		opts.Provider = provider.WithRetry(p, policy)
	}
	return agent.New(opts)
}

// serverSetupHint ends a failure message (a refused key, say) when the
// configured endpoint is not the default local Ollama.
const serverSetupHint = "Check the provider, base URL, model and API key Wrasse uses (config.json, or `wrasse config set provider|baseURL|model …`; " +
	"keys with `wrasse secrets set openai_api_key` or `anthropic_api_key`, or OPENAI_API_KEY / ANTHROPIC_API_KEY)."

// usesLocalOllama reports whether cfg talks to the default local Ollama.
func usesLocalOllama(cfg workspace.Config) bool {
	base := strings.TrimRight(cfg.BaseURL, "/")
	return cfg.Provider == "openai" && (base == "" || base == openai.OllamaBaseURL)
}

// minEnvKeyLen is the shortest key from the environment that is redacted:
// shorter values are placeholders such as "ollama" or "none" that local
// servers ignore, and redacting them would garble ordinary words.
const minEnvKeyLen = 8

// buildProvider makes the configured provider, with its API key from the
// stored secrets or else the environment. A key from the environment is
// added to the store's redaction, as a stored one already is, so it
// reaches neither the history, the model, the screen nor the log.
func buildProvider(a *app, cfg workspace.Config, getenv func(string) string) (provider.Provider, error) {
	key := func(secret, env string) string {
		if v, err := a.db.Secret(secret); err == nil {
			return v
		}
		if getenv == nil {
			return ""
		}
		v := getenv(env)
		if len(v) >= minEnvKeyLen {
			if err := a.db.AddRedaction(env, v); err != nil {
				a.log.Warn("cannot redact the API key from the environment", "variable", env, "error", err)
			}
		}
		return v
	}
	switch cfg.Provider {
	case "openai":
		name := "openai"
		if usesLocalOllama(cfg) {
			name = "ollama"
		}
		return openai.New(openai.Config{Name: name, BaseURL: cfg.BaseURL, APIKey: key(secretOpenAI, envOpenAI), Model: cfg.Model, Logger: a.log})
	case "anthropic":
		return anthropic.New(anthropic.Config{BaseURL: cfg.BaseURL, APIKey: key(secretAnthropic, envAnthropic), Model: cfg.Model, Logger: a.log})
	}
	return nil, fmt.Errorf("provider %q in config.json is not openai or anthropic", cfg.Provider)
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
}

func newChatPrinter(io stdio, asJSON bool) *chatPrinter {
	return &chatPrinter{io: io, json: asJSON, lineStart: true, index: map[uint64]int{}}
}

func (p *chatPrinter) OnStep(int) {}

func (p *chatPrinter) OnText(_ uint64, delta string) {
	if p.json || delta == "" {
		return
	}
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
	switch e.Type {
	case store.EventToolCall:
		p.endLine()
		fmt.Fprintf(p.io.err, "→ %s\n", gate.Summarize(e.ToolName, e.Arguments))
	case store.EventToolResult:
		if e.IsError {
			fmt.Fprintf(p.io.err, "← %s failed: %s\n", e.ToolName, firstLine(e.Text, 160))
		} else {
			fmt.Fprintf(p.io.err, "← %s: %s\n", e.ToolName, sizeOf(e.Text))
		}
	case store.EventApproval:
		if d := e.Decision; d != nil {
			word := map[store.DecisionKind]string{store.ApprovedOnce: "approved once", store.ApprovedConversation: "approved for this conversation",
				store.Denied: "denied", store.Blocked: "blocked"}[d.Kind]
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
		doc := map[string]any{"conversation": id.String(), "events": p.events}
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
	if id != 0 {
		fmt.Fprintf(p.io.err, "(conversation %s; continue with: wrasse chat -c %s \"…\")\n", id, id)
	}
	if err != nil && p.shown {
		// The conversation's error event already said it.
		return fmt.Errorf("%w: %w", errSilent, err)
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

func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
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
	fmt.Fprintf(p.out, "\nWrasse wants to run: %s\n", req.Summary)
	for _, r := range req.Reasons {
		fmt.Fprintf(p.out, "  because it %s\n", strings.TrimPrefix(r, "it "))
	}
	fmt.Fprint(p.out, "Allow? [o]nce / [c]onversation / [d]eny: ")
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
		return parseApproval(r.line), nil
	}
}

// parseApproval reads an answer; anything unclear denies.
func parseApproval(s string) gate.Approval {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "o", "once", "y", "yes":
		return gate.ApproveOnce
	case "c", "conversation", "a", "always":
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

func runConversations(ctx context.Context, args []string, io stdio, getenv func(string) string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: conversations needs a subcommand (list, show, delete)", errUsage)
	}
	sub, rest := args[0], args[1:]
	var g globalFlags
	fs := newFlagSet("conversations "+sub, io)
	g.register(fs)
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	oneID := func() (store.ID, error) {
		if len(pos) != 1 {
			return 0, fmt.Errorf("%w: conversations %s needs a conversation ID (e.g. c12)", errUsage, sub)
		}
		return parseConversationID(pos[0])
	}
	switch sub {
	case "list", "ls":
		return withApp(ctx, g, getenv, func(a *app) error { return conversationsList(a.db, g.json, io.out) })
	case "show":
		id, err := oneID()
		if err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error { return conversationsShow(a.db, id, g.json, io.out) })
	case "delete", "rm":
		id, err := oneID()
		if err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error {
			if err := a.db.DeleteConversation(id); errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("there is no conversation %s; see `wrasse conversations list`", id)
			} else if err != nil {
				return err
			}
			if g.json {
				return writeJSON(io.out, map[string]string{"deleted": id.String()})
			}
			fmt.Fprintf(io.out, "Deleted conversation %s.\n", id)
			return nil
		})
	}
	return fmt.Errorf("%w: unknown conversations subcommand %q", errUsage, sub)
}

func conversationsList(db *store.DB, asJSON bool, w io.Writer) error {
	convs, err := db.ListConversations()
	if err != nil {
		return err
	}
	if asJSON {
		if convs == nil {
			convs = []store.Conversation{}
		}
		return writeJSON(w, convs)
	}
	if len(convs) == 0 {
		fmt.Fprintln(w, `No conversations yet. Start one with: wrasse chat "hello"`)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tEVENTS\tMODEL\tTITLE")
	for _, c := range convs {
		title := c.Title
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", c.ID, c.Updated.Local().Format("2006-01-02 15:04"), c.EventCount, c.Model, title)
	}
	return tw.Flush()
}

func conversationsShow(db *store.DB, id store.ID, asJSON bool, w io.Writer) error {
	c, err := db.GetConversation(id)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("there is no conversation %s; see `wrasse conversations list`", id)
	}
	if err != nil {
		return err
	}
	events, err := db.Events(id)
	if err != nil {
		return err
	}
	if asJSON {
		if events == nil {
			events = []store.Event{}
		}
		return writeJSON(w, map[string]any{"conversation": c, "events": events})
	}
	title := c.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(w, "%s — %s\nModel %s, started %s, %d events.\n\n", c.ID, title, c.Model, c.Created.Local().Format(time.DateTime), c.EventCount)
	_, err = io.WriteString(w, history.Render(events, 0))
	return err
}

func runSecrets(ctx context.Context, args []string, io stdio, getenv func(string) string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: secrets needs a subcommand (set, list, delete)", errUsage)
	}
	sub, rest := args[0], args[1:]
	var g globalFlags
	fs := newFlagSet("secrets "+sub, io)
	g.register(fs)
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	switch sub {
	case "set":
		if len(pos) != 1 {
			return fmt.Errorf("%w: secrets set needs one NAME; the value is read from stdin (typed without echo, or piped), never from the command line", errUsage)
		}
		name := pos[0]
		value, err := readSecret(io, name)
		if err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error {
			if err := a.db.SetSecret(name, value); err != nil {
				return err
			}
			if g.json {
				return writeJSON(io.out, map[string]string{"saved": name})
			}
			fmt.Fprintf(io.out, "Saved secret %s. It is redacted as [redacted:%s] from everything Wrasse stores.\n", name, name)
			return nil
		})
	case "list", "ls":
		return withApp(ctx, g, getenv, func(a *app) error {
			names, err := a.db.SecretNames()
			if err != nil {
				return err
			}
			if g.json {
				if names == nil {
					names = []string{}
				}
				return writeJSON(io.out, names)
			}
			if len(names) == 0 {
				fmt.Fprintln(io.out, "No secrets stored. Add one with: wrasse secrets set NAME")
				return nil
			}
			for _, n := range names {
				fmt.Fprintln(io.out, n)
			}
			return nil
		})
	case "delete", "rm":
		if len(pos) != 1 {
			return fmt.Errorf("%w: secrets delete needs one NAME", errUsage)
		}
		return withApp(ctx, g, getenv, func(a *app) error {
			if err := a.db.DeleteSecret(pos[0]); errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("there is no secret %q; see `wrasse secrets list`", pos[0])
			} else if err != nil {
				return err
			}
			if g.json {
				return writeJSON(io.out, map[string]string{"deleted": pos[0]})
			}
			fmt.Fprintf(io.out, "Deleted secret %s.\n", pos[0])
			return nil
		})
	}
	return fmt.Errorf("%w: unknown secrets subcommand %q", errUsage, sub)
}

// readSecret reads a value typed without echo on a terminal, or piped in
// (one trailing newline removed).
func readSecret(io stdio, name string) (string, error) {
	var value string
	if f, ok := io.in.(*os.File); ok && interactive(f) {
		fmt.Fprintf(io.err, "Value for %s (not shown): ", name)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(io.err)
		if err != nil {
			return "", fmt.Errorf("read the value of %s: %w", name, err)
		}
		value = string(b)
	} else if io.in != nil {
		b, err := readLimited(io.in, maxPipedInput)
		if err != nil {
			return "", fmt.Errorf("read the value of %s from stdin: %w", name, err)
		}
		value = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	}
	if value == "" {
		return "", fmt.Errorf("no value for %s: type it when asked, or pipe it in, e.g. printf %%s \"$KEY\" | wrasse secrets set %s", name, name)
	}
	return value, nil
}
