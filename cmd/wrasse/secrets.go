package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

func secretsSet(_ context.Context, app *assistant.App, c *call) error {
	name := c.args[0]
	value, err := readSecret(c.io, name)
	if err != nil {
		return err
	}
	if err := app.SetSecret(name, value); err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"saved": name})
	}
	fmt.Fprintf(c.io.out, "Saved secret %s. It is redacted as [redacted:%s] from everything Wrasse stores.\n", name, name)
	return nil
}

func secretsList(_ context.Context, app *assistant.App, c *call) error {
	names, err := app.SecretNames()
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, orEmpty(names))
	}
	if len(names) == 0 {
		fmt.Fprintln(c.io.out, "No secrets stored. Add one with: wrasse secrets set NAME")
		return nil
	}
	for _, n := range names {
		fmt.Fprintln(c.io.out, n+placesText(app, n))
	}
	return nil
}

// placesText says where a secret may go, after its name.
func placesText(app *assistant.App, name string) string {
	p, err := app.SecretPlaces(name)
	if err != nil {
		return ""
	}
	var parts []string
	if p.Host != "" {
		parts = append(parts, "sent only to "+p.Host)
	}
	if len(p.Capabilities) > 0 {
		parts = append(parts, "assigned to "+strings.Join(p.Capabilities, ", "))
	}
	if len(parts) == 0 {
		return "  (assigned to no capability)"
	}
	return "  (" + strings.Join(parts, "; ") + ")"
}

func secretsAssign(_ context.Context, app *assistant.App, c *call, providerKey bool) error {
	name, capName := c.args[0], c.args[1]
	if providerKey && c.forwarded && (name == assistant.SecretOpenAI || name == assistant.SecretAnthropic) {
		return keyNotForwarded("--provider-key", "give your provider's API key to "+capName,
			hint.Hint{Action: "Assign " + name + " on " + capName + "'s page in the window, or run this in your own terminal " + noOtherWrasse,
				Page: hint.PageCapability, Target: capName})
	}
	if err := app.AssignSecret(name, capName, providerKey); err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"assigned": name, "capability": capName})
	}
	fmt.Fprintf(c.io.out, "%s may now use the secret %s.\n", capName, name)
	if providerKey {
		fmt.Fprintf(c.io.err, "warning: %s now receives a provider API key, which leaves the host it is kept for. Withdraw it with: wrasse secrets unassign %s %s\n", capName, name, capName)
	}
	if !app.HasSecret(name) {
		fmt.Fprintf(c.io.out, "It is not stored yet: wrasse secrets set %s\n", name)
	}
	return nil
}

func secretsUnassign(_ context.Context, app *assistant.App, c *call) error {
	name, capName := c.args[0], c.args[1]
	if err := app.UnassignSecret(name, capName); err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"unassigned": name, "capability": capName})
	}
	fmt.Fprintf(c.io.out, "%s may no longer use the secret %s.\n", capName, name)
	return nil
}

func secretsDelete(_ context.Context, app *assistant.App, c *call) error {
	name := c.args[0]
	if err := app.DeleteSecret(name); err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"deleted": name})
	}
	fmt.Fprintf(c.io.out, "Deleted secret %s.\n", name)
	return nil
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
