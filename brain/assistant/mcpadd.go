package assistant

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// MCPServer is how to reach one MCP server, named: the SKILL.md `mcp:`
// block (skillmd.MCPServer: a command Wrasse runs over stdio, or a URL it
// connects to) and the capability's name. Values in Env and Headers may
// reference stored secrets as ${secret:NAME}; the host resolves them when
// the server starts. (The block's Secrets field is reached as
// s.MCPServer.Secrets: s.Secrets is the method listing references.)
type MCPServer struct {
	// Name is the capability's name.
	Name string `json:"name"`
	skillmd.MCPServer
}

// AddMCP installs an MCP server as a capability: a folder whose SKILL.md
// has the `mcp:` block, validated and installed like any capability, so a
// refused server leaves nothing behind. A server added by hand
// (imported=false) is enabled at once; an imported one is installed
// switched off, to be enabled once the user has seen what it runs
// (MCPServer.Launch). A literal value of an environment variable or
// header whose name says it is a secret (a token, a key, a password,
// Authorization) is stored as a secret and referenced, never written to
// the folder.
func (a *App) AddMCP(ctx context.Context, s MCPServer, imported bool) (*manage.InstallResult, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	s, secrets := s.moveSecrets()
	data, err := s.skillMD()
	if err != nil {
		return nil, err
	}
	dir, err := a.privateStaging("mcp-add-")
	if err != nil {
		return nil, fmt.Errorf("add MCP server %s: %w", s.Name, err)
	}
	defer os.RemoveAll(dir)
	folder := filepath.Join(dir, s.Name)
	if err := os.Mkdir(folder, 0o700); err != nil {
		return nil, fmt.Errorf("add MCP server %s: %w", s.Name, err)
	}
	if err := os.WriteFile(filepath.Join(folder, "SKILL.md"), data, 0o600); err != nil {
		return nil, fmt.Errorf("add MCP server %s: %w", s.Name, err)
	}

	a.mu.Lock()
	defer a.mu.Unlock()
	if c, err := a.reg.Get(s.Name); err == nil {
		return nil, hint.With(fmt.Errorf("add MCP server %s: %w: a capability named %s is installed (%s); remove it first or choose another name",
			s.Name, cerebellum.ErrExists, c.Name, c.Kind), hint.Hint{Action: "Remove the installed one", Command: []string{"mcp", "remove", c.Name}})
	}
	// The secrets go in first so the server finds them when it starts; a
	// refused install puts back what was there before.
	restore, err := a.storeSecrets(secrets)
	if err != nil {
		return nil, fmt.Errorf("add MCP server %s: store its secrets: %w", s.Name, err)
	}
	res, err := a.mgr.Install(ctx, folder, manage.InstallOptions{Approved: !imported})
	if err != nil && res == nil {
		restore()
		return nil, fmt.Errorf("add MCP server %s: %w", s.Name, err)
	}
	if err == nil {
		if cerr := a.checkInstalled(ctx, s.Name, data); cerr != nil {
			restore()
			return nil, fmt.Errorf("add MCP server %s: %w", s.Name, cerr)
		}
	}
	if aerr := a.assignAdded(s, secrets, imported); aerr != nil {
		return res, errors.Join(err, fmt.Errorf("add MCP server %s: %w", s.Name, aerr))
	}
	return res, err
}

// assignAdded assigns to the new server the secrets it may use: those
// made from its own literal values (moved), and, for a server the person
// added by hand, every ${secret:NAME} they typed, except a provider's API
// key, which needs AssignSecret's explicit providerKey. An imported
// server's other references wait for the person. Call with a.mu held.
func (a *App) assignAdded(s MCPServer, moved map[string]string, imported bool) error {
	names := sortedKeys(moved)
	if !imported {
		for _, n := range s.Secrets() {
			if _, pk := providerOfKey(n); !pk {
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		if err := a.assignTo(n, s.Name); err != nil {
			return err
		}
	}
	return nil
}

// storeSecrets stores each secret and returns what undoes it. Call with
// a.mu held.
func (a *App) storeSecrets(secrets map[string]string) (undo func(), err error) {
	type prior struct {
		name, value string
		had         bool
	}
	var done []prior
	undo = func() {
		for _, p := range slices.Backward(done) {
			if p.had {
				_ = a.db.SetSecret(p.name, p.value)
			} else {
				_ = a.db.DeleteSecret(p.name)
			}
		}
	}
	for _, name := range sortedKeys(secrets) {
		old, gerr := a.db.Secret(name)
		if err := a.db.SetSecret(name, secrets[name]); err != nil {
			undo()
			return nil, err
		}
		done = append(done, prior{name, old, gerr == nil})
	}
	return undo, nil
}

// MCPServerOf is the server an installed MCP capability reaches, as its
// SKILL.md says (secrets as ${secret:NAME} references, never values).
func (a *App) MCPServerOf(name string) (MCPServer, error) {
	c, err := a.reg.Get(name)
	if err != nil {
		return MCPServer{}, err
	}
	if c.Kind != cerebellum.KindMCP || c.Manifest == nil || c.Manifest.MCP == nil {
		return MCPServer{}, fmt.Errorf("%w: %s is a %s, not an MCP server", ErrNotMCP, c.Name, c.Kind)
	}
	m := c.Manifest.MCP
	s := MCPServer{Name: c.Name, MCPServer: skillmd.MCPServer{Command: m.Command, Args: slices.Clone(m.Args), Cwd: m.Cwd, URL: m.URL, Headers: maps.Clone(m.Headers), OAuth: m.OAuth}}
	if len(m.Env)+len(m.Secrets) > 0 {
		s.Env = map[string]string{}
		for k, v := range m.Env {
			s.Env[k] = v
		}
		for k, secret := range m.Secrets {
			s.Env[k] = secretRef(secret)
		}
	}
	return s, nil
}

// Launch is exactly what the server runs, for the user to approve: the
// command line with its environment and folder, or the URL with the
// headers it sends; secrets by reference only (cerebellum.LaunchLine, as
// the capability's page and `caps enable` show it).
func (s MCPServer) Launch() string { return cerebellum.LaunchLine(s.block()) }

// Secrets lists the secret names the server references, sorted.
func (s MCPServer) Secrets() []string { return s.block().SecretRefs() }

// block is s as an mcp: block.
func (s MCPServer) block() *skillmd.MCPServer {
	b := s.MCPServer
	return &b
}

// check refuses what no server can be, before anything is written.
func (s MCPServer) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("add MCP server %s: %w: %s", s.Name, ErrInvalidMCP, fmt.Sprintf(format, args...))
	}
	if !skillmd.ValidName(s.Name) {
		return fmt.Errorf("add MCP server: %w: %q is not a valid name: use 1-%d lowercase letters, digits and single hyphens, not starting or ending with -",
			ErrInvalidMCP, s.Name, skillmd.MaxNameLength)
	}
	switch {
	case strings.TrimSpace(s.Command) == "" && s.URL == "":
		return bad("give the command that starts the server, or the URL it is reached at")
	case s.Command != "" && s.URL != "":
		return bad("give either a command or a URL, not both")
	}
	for _, v := range append([]string{s.Command, s.Cwd, s.URL}, s.Args...) {
		if strings.ContainsRune(v, 0) {
			return bad("a value contains a NUL character")
		}
	}
	if s.URL != "" {
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad("the URL %q is not an http or https address", s.URL)
		}
		if len(s.Args)+len(s.Env) > 0 || s.Cwd != "" {
			return bad("arguments, environment and folder are for a server Wrasse runs, not one reached by URL")
		}
	}
	if s.Command != "" && len(s.Headers) > 0 {
		return bad("headers are for a server reached by URL, not one Wrasse runs")
	}
	for k, v := range s.Env {
		if !skillmd.ValidEnvName(k) || strings.ContainsRune(v, 0) {
			return bad("the environment variable %q cannot be set", k)
		}
	}
	for k, v := range s.Headers {
		if !skillmd.ValidHeaderName(k) {
			return bad("%q is not a header name", k)
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return bad("the header %s contains a line break", k)
		}
	}
	// Values reach a server through its environment or headers only: its
	// command line is readable by every process (/proc/PID/cmdline).
	if probs := s.block().SecretPlaceProblems(); len(probs) > 0 {
		return bad("%s: %s", probs[0].Field, probs[0].Message)
	}
	values := append([]string{s.Command, s.URL, s.Cwd}, s.Args...)
	values = append(values, slices.Collect(maps.Values(s.Env))...)
	values = append(values, slices.Collect(maps.Values(s.Headers))...)
	for _, v := range values {
		// A reference the host would not recognise reaches the server as
		// literal text.
		if strings.Count(v, "${secret:") != len(skillmd.SecretNames(v)) {
			return bad("%q has a ${secret:NAME} reference whose NAME is not a secret's name (letters, digits, '_', '.', '-')", v)
		}
	}
	return nil
}

// moveSecrets takes literal values of secret-looking variables and
// headers out of s: they are returned by secret name, s references them.
func (s MCPServer) moveSecrets() (MCPServer, map[string]string) {
	secrets := map[string]string{}
	move := func(kind string, in map[string]string) map[string]string {
		if in == nil {
			return nil
		}
		out := make(map[string]string, len(in))
		for k, v := range in {
			if v != "" && !strings.Contains(v, "${secret:") && looksSecret(kind, k) {
				name := mcpSecretName(s.Name, k)
				secrets[name] = v
				v = secretRef(name)
			}
			out[k] = v
		}
		return out
	}
	s.Env = move("env", s.Env)
	s.Headers = move("header", s.Headers)
	if o := s.OAuth; o != nil && o.ClientSecret != "" && !strings.Contains(o.ClientSecret, "${secret:") {
		name := mcpSecretName(s.Name, "oauth_client_secret")
		secrets[name] = o.ClientSecret
		c := *o
		c.ClientSecret = secretRef(name)
		s.OAuth = &c
	}
	return s, secrets
}

// looksSecret says by its name whether a variable or header carries a
// credential.
func looksSecret(kind, name string) bool {
	up := strings.ToUpper(name)
	if kind == "header" {
		switch up {
		case "AUTHORIZATION", "PROXY-AUTHORIZATION", "COOKIE":
			return true
		}
	}
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "API_KEY", "API-KEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH"} {
		if strings.Contains(up, w) {
			return true
		}
	}
	for _, part := range strings.FieldsFunc(up, func(r rune) bool { return r == '_' || r == '-' }) {
		if part == "KEY" || part == "PAT" || part == "PWD" && kind == "header" {
			return true
		}
	}
	return false
}

// mcpSecretName names the secret holding a server's value of key:
// mcp.<capability>.<key>, shortened with a hash to fit 64 characters.
func mcpSecretName(capability, key string) string {
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	name := "mcp." + capability + "." + b.String()
	if len(name) > store.MaxNameLen {
		sum := sha256.Sum256([]byte(name))
		name = name[:store.MaxNameLen-9] + "." + hex.EncodeToString(sum[:4])
	}
	return name
}

func secretRef(name string) string { return "${secret:" + name + "}" }

// skillMD is the capability's SKILL.md. It is parsed back before anything
// is installed: a field this build's SKILL.md does not know (headers, say)
// would be dropped, so it is refused instead of silently lost.
func (s MCPServer) skillMD() ([]byte, error) {
	type block struct {
		Command string            `yaml:"command,omitempty"`
		Args    []string          `yaml:"args,omitempty,flow"`
		Env     map[string]string `yaml:"env,omitempty"`
		Cwd     string            `yaml:"cwd,omitempty"`
		URL     string            `yaml:"url,omitempty"`
		Headers map[string]string `yaml:"headers,omitempty"`
		OAuth   *oauthBlock       `yaml:"oauth,omitempty"`
	}
	type front struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
		MCP         block  `yaml:"mcp"`
	}
	what := s.URL
	if what == "" {
		what = "the command " + MCPServer{MCPServer: skillmd.MCPServer{Command: s.Command, Args: s.Args}}.Launch()
	}
	desc := fmt.Sprintf("Tools of the MCP server %s (%s).", s.Name, what)
	if len(desc) > skillmd.MaxDescriptionLength {
		desc = fmt.Sprintf("Tools of the MCP server %s.", s.Name)
	}
	fm, err := yaml.Marshal(front{Name: s.Name, Description: desc,
		MCP: block{Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers, OAuth: oauthBlockOf(s.OAuth)}})
	if err != nil {
		return nil, fmt.Errorf("add MCP server %s: %w", s.Name, err)
	}
	body := fmt.Sprintf("# %s\n\nAn MCP server. Its tools come from the server's own list when it connects.\n", s.Name)
	data := []byte("---\n" + string(fm) + "---\n" + body)
	m, err := skillmd.Parse(data, skillmd.Options{File: "SKILL.md", Folder: s.Name})
	if err != nil {
		return nil, fmt.Errorf("add MCP server %s: %w: %w", s.Name, ErrInvalidMCP, err)
	}
	for _, w := range m.Warnings {
		if strings.HasPrefix(w.Field, "mcp.") {
			return nil, fmt.Errorf("add MCP server %s: %w: this build cannot keep %s yet (%s)", s.Name, ErrMCPUnsupported, w.Field, w.Message)
		}
	}
	return data, nil
}

// sortedKeys lists a map's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// oauthBlock is mcp.oauth as SKILL.md spells it.
type oauthBlock struct {
	ClientID          string `yaml:"client_id,omitempty"`
	ClientSecret      string `yaml:"client_secret,omitempty"`
	ClientMetadataURL string `yaml:"client_metadata_url,omitempty"`
}

func oauthBlockOf(o *skillmd.MCPOAuth) *oauthBlock {
	if o == nil || *o == (skillmd.MCPOAuth{}) {
		return nil
	}
	return &oauthBlock{ClientID: o.ClientID, ClientSecret: o.ClientSecret, ClientMetadataURL: o.ClientMetadataURL}
}
