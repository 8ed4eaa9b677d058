package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/plugins/mcp"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
)

// cliAsker puts MCP servers' questions to the person in the terminal.
// Without a terminal, --yes accepts a question when every required field
// has a default (the defaults are the answer), and any other question is
// declined.
type cliAsker struct{ c *call }

var _ mcp.Asker = cliAsker{}

func (a cliAsker) yes() bool { return a.c.flags["yes"] }

func (a cliAsker) SigningIn(server, url string) {
	fmt.Fprintf(a.c.io.err, "%s needs you to sign in. Opening your browser at:\n  %s\nWaiting for sign-in in your browser… (Ctrl-C cancels)\n", server, url)
}

func (a cliAsker) Elicit(ctx context.Context, q mcp.Question) (mcp.Answer, error) {
	w := a.c.io.err
	if interactive(a.c.io.in) {
		return askInTerminal(ctx, a.c.io.in, w, q)
	}
	if q.URL != "" {
		fmt.Fprintf(w, "%s asks you to open %s (%s); declined: there is no terminal to ask in.\n", q.Server, q.URL, q.Message)
		return mcp.Answer{Action: mcp.ActionDecline}, nil
	}
	content, ok := q.Defaults()
	switch {
	case a.yes() && ok:
		fmt.Fprintf(w, "%s asked: %s\nAccepted with its defaults (--yes).\n", q.Server, q.Message)
		return mcp.Answer{Action: mcp.ActionAccept, Content: content}, nil
	case a.yes():
		fmt.Fprintf(w, "%s asked: %s\nDeclined: a required field has no default, and there is no terminal to ask in.\n", q.Server, q.Message)
	default:
		fmt.Fprintf(w, "%s asked: %s\nDeclined: there is no terminal to ask in (--yes accepts a question whose required fields all have defaults).\n", q.Server, q.Message)
	}
	return mcp.Answer{Action: mcp.ActionDecline}, nil
}

// askInTerminal asks field by field (Enter keeps the default), then
// whether to send the answer.
func askInTerminal(ctx context.Context, in io.Reader, w io.Writer, q mcp.Question) (mcp.Answer, error) {
	r := bufio.NewReader(in)
	line := func(prompt string) (string, error) {
		fmt.Fprint(w, prompt)
		if err := ctx.Err(); err != nil {
			return "", err
		}
		s, err := r.ReadString('\n')
		if err != nil && s == "" {
			return "", err
		}
		return strings.TrimSpace(s), nil
	}
	fmt.Fprintf(w, "%s asks: %s\n", q.Server, q.Message)
	if q.URL != "" {
		fmt.Fprintf(w, "It asks you to open: %s\n", q.URL)
		s, err := line("Open it? [y/N] ")
		if err != nil {
			return mcp.Answer{Action: mcp.ActionCancel}, nil
		}
		if strings.EqualFold(s, "y") || strings.EqualFold(s, "yes") {
			if err := signin.OpenBrowser(ctx, q.URL); err != nil {
				fmt.Fprintf(w, "Open it yourself: %v\n", err)
			}
			return mcp.Answer{Action: mcp.ActionAccept}, nil
		}
		return mcp.Answer{Action: mcp.ActionDecline}, nil
	}
	content := map[string]any{}
	for _, f := range q.Fields {
		for {
			s, err := line(fieldPrompt(f))
			if err != nil {
				return mcp.Answer{Action: mcp.ActionCancel}, nil
			}
			if s == "" {
				if f.Default != nil || !f.Required {
					break // the default applies (WithDefaults), or the field stays out
				}
				fmt.Fprintln(w, "  required")
				continue
			}
			v, err := parseField(f, s)
			if err != nil {
				fmt.Fprintf(w, "  %v\n", err)
				continue
			}
			content[f.Name] = v
			break
		}
	}
	s, err := line("Send this answer? [Y]es, [n]o (decline), [c]ancel: ")
	if err != nil {
		return mcp.Answer{Action: mcp.ActionCancel}, nil
	}
	switch strings.ToLower(s) {
	case "", "y", "yes":
		return mcp.Answer{Action: mcp.ActionAccept, Content: content}, nil
	case "n", "no":
		return mcp.Answer{Action: mcp.ActionDecline}, nil
	}
	return mcp.Answer{Action: mcp.ActionCancel}, nil
}

func fieldPrompt(f mcp.Field) string {
	label := f.Title
	if label == "" {
		label = f.Name
	}
	var b strings.Builder
	b.WriteString(label)
	if f.Required {
		b.WriteString("*")
	}
	if f.Description != "" {
		b.WriteString(" (" + f.Description + ")")
	}
	switch {
	case f.Type == "array":
		b.WriteString(" any of " + strings.Join(f.Enum, ", ") + ", separated by commas")
	case len(f.Enum) > 0:
		b.WriteString(" one of " + strings.Join(f.Enum, ", "))
	case f.Type == "boolean":
		b.WriteString(" y/n")
	}
	if f.Default != nil {
		fmt.Fprintf(&b, " [%v]", f.Default)
	}
	b.WriteString(": ")
	return b.String()
}

// parseField reads a typed value for f.
func parseField(f mcp.Field, s string) (any, error) {
	switch f.Type {
	case "boolean":
		switch strings.ToLower(s) {
		case "y", "yes", "true":
			return true, nil
		case "n", "no", "false":
			return false, nil
		}
		return nil, fmt.Errorf("answer y or n")
	case "integer":
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("a whole number, please")
		}
		return n, nil
	case "number":
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("a number, please")
		}
		return n, nil
	case "array":
		return parseChoices(f, s)
	}
	if len(f.Enum) > 0 {
		for _, e := range f.Enum {
			if e == s {
				return s, nil
			}
		}
		return nil, fmt.Errorf("one of %s, please", strings.Join(f.Enum, ", "))
	}
	return s, nil
}

// parseChoices reads a multiple choice typed as a comma-separated list:
// each from f.Enum, none twice, as many as MinItems and MaxItems allow.
func parseChoices(f mcp.Field, s string) (any, error) {
	out := []string{}
	for _, part := range strings.Split(s, ",") {
		c := strings.TrimSpace(part)
		if c == "" {
			continue
		}
		if len(f.Enum) > 0 && !slices.Contains(f.Enum, c) {
			return nil, fmt.Errorf("%q is not a choice: any of %s, separated by commas", c, strings.Join(f.Enum, ", "))
		}
		if slices.Contains(out, c) {
			return nil, fmt.Errorf("%q is chosen twice", c)
		}
		out = append(out, c)
	}
	if f.MinItems != nil && len(out) < *f.MinItems {
		return nil, fmt.Errorf("choose at least %d", *f.MinItems)
	}
	if f.MaxItems != nil && len(out) > *f.MaxItems {
		return nil, fmt.Errorf("choose at most %d", *f.MaxItems)
	}
	return out, nil
}

var _ mcp.SamplingApprover = cliAsker{}

// ApproveSampling shows a server's request for a completion on the
// terminal, its whole prompt, and asks whether the model may answer it.
// Without a terminal it is declined, --yes or not: a prompt the person
// never saw does not go to the model.
func (a cliAsker) ApproveSampling(ctx context.Context, req mcp.SampleRequest) (bool, error) {
	w := a.c.io.err
	if !interactive(a.c.io.in) {
		fmt.Fprintf(w, "%s asked the model for a completion; declined: there is no terminal to show you its prompt.\n", req.Server)
		return false, nil
	}
	return approveInTerminal(ctx, a.c.io.in, w, req)
}

// approveInTerminal prints req's prompt and reads yes or no.
func approveInTerminal(ctx context.Context, in io.Reader, w io.Writer, req mcp.SampleRequest) (bool, error) {
	fmt.Fprintf(w, "%s asks your model for a completion", req.Server)
	if req.Tool != "" {
		fmt.Fprintf(w, " (during %s)", req.Tool)
	}
	fmt.Fprintln(w, ". Its prompt:")
	if req.SystemPrompt != "" {
		fmt.Fprintf(w, "  [system] %s\n", req.SystemPrompt)
	}
	for _, m := range req.Messages {
		fmt.Fprintf(w, "  [%s] %s\n", m.Role, m.Text)
	}
	fmt.Fprint(w, "Let the model answer it? [y/N] ")
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && s == "" {
		return false, nil
	}
	s = strings.TrimSpace(s)
	return strings.EqualFold(s, "y") || strings.EqualFold(s, "yes"), nil
}
