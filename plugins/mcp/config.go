package mcp

import (
	"fmt"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// config is a server's launch settings with defaults applied; secrets are
// still references until resolve.
type config struct {
	name  string
	block skillmd.MCPServer
	// cwd is the working folder ("" for a fresh temporary one); dir the
	// capability's folder; workspace the workspace, whose protected paths
	// a sandboxed server never reaches; network is the server's setting.
	cwd, dir, workspace string
	network             bool
	// approved is the ApprovalKey the person approved, checked against the
	// files the command runs at each start; check is false for a server
	// that needs no approval (one that ships with the app).
	approved string
	check    bool
	connect  time.Duration
	call     time.Duration
	idle     time.Duration
}

// configOf checks a load request and settles the server's settings.
func (l *Loader) configOf(req cerebellum.LoadRequest) (config, error) {
	c := req.Capability
	switch {
	case c == nil:
		return config{}, fmt.Errorf("%w: no capability", ErrBadRequest)
	case c.Manifest == nil || c.Manifest.MCP == nil:
		return config{}, fmt.Errorf("%w: %s has no mcp: block in SKILL.md", ErrBadRequest, c.Name)
	}
	b := *c.Manifest.MCP
	cfg := config{name: c.Name, block: b, connect: l.opts.ConnectTimeout, call: l.opts.CallTimeout, idle: l.opts.Idle,
		dir: c.Dir, workspace: req.Workspace, network: !c.NoNetwork,
		approved: c.Approved, check: c.Source == cerebellum.SourceWorkspace}
	if b.ConnectTimeout > 0 {
		cfg.connect = b.ConnectTimeout
	}
	if b.CallTimeout > 0 {
		cfg.call = b.CallTimeout
	}
	if b.Idle > 0 {
		cfg.idle = b.Idle
	}
	if b.URL != "" {
		u, err := url.Parse(b.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return config{}, fmt.Errorf("%w: %s: mcp.url %q is not an http(s) address", ErrBadRequest, c.Name, b.URL)
		}
		return cfg, nil
	}
	// The capability's folder, never the workspace itself; without one, a
	// fresh temporary folder (confine) or the system's.
	cfg.cwd = cerebellum.MCPWorkDir(&b, c.Dir)
	return cfg, nil
}

// resolved is a config with its secrets looked up.
type resolved struct {
	command string
	args    []string
	env     []string
	url     string
	headers map[string]string
	// oauthClientID and oauthClientSecret are a pre-registered OAuth
	// client (empty: dynamic client registration).
	oauthClientID, oauthClientSecret string
	// oauthMetadataURL is the client's metadata document (a URL client
	// ID), tried before registration.
	oauthMetadataURL string
	// secrets are the values used, so they can be cut from any output.
	secrets map[string]string
}

// resolve looks up every ${secret:NAME} of the block's env and headers
// (and the URL's path), each only if the capability may use it. The
// command line is passed as written: a secret never goes there (the
// SKILL.md parser refuses one).
func (l *Loader) resolve(cfg config) (resolved, error) {
	b := cfg.block
	if probs := b.SecretPlaceProblems(); len(probs) > 0 {
		return resolved{}, fmt.Errorf("%w: %s: %s: %s", ErrBadRequest, cfg.name, probs[0].Field, probs[0].Message)
	}
	out := resolved{command: b.Command, url: b.URL, args: slices.Clone(b.Args), secrets: map[string]string{}}
	if l.opts.SecretAllowed != nil {
		// Refuse before any value is read: the first unassigned secret,
		// with the person's fix.
		for _, name := range b.SecretRefs() {
			if err := l.opts.SecretAllowed(cfg.name, name); err != nil {
				return resolved{}, fmt.Errorf("%w: MCP server %s: %w", ErrSecretRefused, cfg.name, err)
			}
		}
	}
	var missing []string
	lookup := func(name string) (string, error) {
		if l.opts.Secrets == nil {
			missing = append(missing, name)
			return "", ErrSecret
		}
		v, err := l.opts.Secrets(name)
		if err != nil || v == "" {
			missing = append(missing, name)
			return "", ErrSecret
		}
		out.secrets[name] = v
		return v, nil
	}
	expand := func(v string) string {
		s, _ := skillmd.ExpandSecrets(v, lookup)
		return s
	}
	out.url = expand(b.URL)
	if b.URL == "" {
		// Only what the block declares, plus PATH and HOME.
		env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")}
		for k, v := range b.Env {
			env[k] = expand(v)
		}
		for k, name := range b.Secrets {
			if v, err := lookup(name); err == nil {
				env[k] = v
			}
		}
		for _, k := range slices.Sorted(maps.Keys(env)) {
			out.env = append(out.env, k+"="+env[k])
		}
	}
	if o := b.OAuth; o != nil {
		out.oauthClientID, out.oauthMetadataURL = o.ClientID, o.ClientMetadataURL
		if o.ClientSecret != "" {
			out.oauthClientSecret = expand(o.ClientSecret)
		}
	}
	if len(b.Headers) > 0 {
		out.headers = map[string]string{}
		for k, v := range b.Headers {
			out.headers[k] = expand(v)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		return resolved{}, hint.With(fmt.Errorf("%w: %s needs %s; store it and try again", ErrSecret, cfg.name, strings.Join(missing, ", ")),
			hint.Hint{Action: "Store the secret " + missing[0], Command: []string{"secrets", "set", missing[0]}})
	}
	return out, nil
}

// redactor cuts the resolved secret values out of text.
func (r resolved) redactor() func(string) string {
	type pair struct{ name, value string }
	var ps []pair
	for n, v := range r.secrets {
		if len(v) >= 4 {
			ps = append(ps, pair{n, v})
		}
	}
	// Longest first, so a value containing another is cut whole.
	slices.SortFunc(ps, func(a, b pair) int { return len(b.value) - len(a.value) })
	return func(s string) string {
		for _, p := range ps {
			s = strings.ReplaceAll(s, p.value, "[redacted:"+p.name+"]")
		}
		return s
	}
}
