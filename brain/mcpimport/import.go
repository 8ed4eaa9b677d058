package mcpimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Limits on untrusted files.
const (
	// MaxFileSize bounds a configuration file (real ones are a few KB).
	MaxFileSize = 1 << 20
	// MaxEnvFileSize bounds a VS Code envFile.
	MaxEnvFileSize = 64 << 10
	// MaxDepth bounds JSON nesting (a real file nests four levels).
	MaxDepth = 32
	// MaxServers bounds the servers of one file.
	MaxServers = 200
)

// Format is the kind of configuration file.
type Format string

// The formats Parse reads.
const (
	// FormatClaude is Claude Desktop's claude_desktop_config.json.
	FormatClaude Format = "claude-desktop"
	// FormatCursor is Cursor's mcp.json (and any other `mcpServers` file).
	FormatCursor Format = "cursor"
	// FormatVSCode is VS Code's .vscode/mcp.json (or settings.json's "mcp").
	FormatVSCode Format = "vscode"
)

// Title is the app that writes the format.
func (f Format) Title() string {
	switch f {
	case FormatClaude:
		return "Claude Desktop"
	case FormatCursor:
		return "Cursor"
	case FormatVSCode:
		return "VS Code"
	}
	return string(f)
}

// Options tune Parse.
type Options struct {
	// File is the file's path: its base name tells Claude Desktop's file
	// from Cursor's, and relative envFile paths are relative to its folder.
	File string
	// Home is the user's home folder, for ${userHome} ("" refuses it).
	Home string
	// WorkspaceFolder is the folder of the project the file belongs to,
	// for ${workspaceFolder} ("": the parent of a .vscode folder holding
	// File, else refused).
	WorkspaceFolder string
	// ReadFile reads a VS Code envFile (nil: a server with one is skipped).
	ReadFile func(path string) ([]byte, error)
	// Reserved reports names a server must not take (capabilities that
	// are not MCP servers, such as the built-in filesystem): such a
	// server is named NAME-mcp instead. nil reserves none.
	Reserved func(name string) bool
}

// Server is one server taken from the file. Values referencing secrets
// hold `${secret:NAME}`; every NAME is in Result.Secrets.
type Server struct {
	// Name is the capability's name: the file's name made valid, unique in
	// this file.
	Name string `json:"name"`
	// Original is the server's name in the file.
	Original string `json:"original"`
	// MCPServer is how to reach it, as a SKILL.md `mcp:` block holds it
	// (the import sets Command, Args, Env, Cwd, URL and Headers).
	skillmd.MCPServer
	// Notes say what of the entry was not taken (an unknown key, say).
	Notes []string `json:"notes,omitempty"`
}

// Skipped is a server left out, and why.
type Skipped struct {
	Original string `json:"original"`
	Reason   string `json:"reason"`
}

// Secret is a secret the taken servers reference: the user sets it
// (wrasse secrets set NAME) before they can start.
type Secret struct {
	Name string `json:"name"`
	// From says where the other app took the value: "env:VAR" or
	// "input:ID".
	From []string `json:"from"`
	// Prompt is the input's description, for asking the user.
	Prompt string `json:"prompt,omitempty"`
	// Password: the input said the value is to be typed hidden.
	Password bool `json:"password,omitempty"`
	// Servers are the capability names that reference it.
	Servers []string `json:"servers"`
}

// Result is what a file holds.
type Result struct {
	Format  Format    `json:"format"`
	Servers []Server  `json:"servers"`
	Skipped []Skipped `json:"skipped"`
	Secrets []Secret  `json:"secrets"`
}

// Parse reads a configuration file. It fails only when the file as a whole
// cannot be read (too large, not JSON, no servers); each server is taken
// or skipped with a reason.
func Parse(data []byte, opt Options) (*Result, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(data), MaxFileSize)
	}
	clean, err := standardJSON(data, MaxDepth)
	if err != nil {
		return nil, err
	}
	top, err := objectOf(clean)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSyntax, err)
	}
	res := &Result{Servers: []Server{}, Skipped: []Skipped{}, Secrets: []Secret{}}
	var servers json.RawMessage
	inputs := map[string]input{}
	switch {
	case top.has("servers"):
		res.Format = FormatVSCode
		servers = top.get("servers")
		inputs = readInputs(top.get("inputs"))
	case top.has("mcpServers"):
		res.Format = FormatCursor
		if strings.EqualFold(filepath.Base(opt.File), "claude_desktop_config.json") {
			res.Format = FormatClaude
		}
		servers = top.get("mcpServers")
	case top.has("mcp"):
		// VS Code's settings.json keeps the same object under "mcp".
		inner, err := objectOf(top.get("mcp"))
		if err != nil || !inner.has("servers") {
			return nil, ErrNoServers
		}
		res.Format = FormatVSCode
		servers = inner.get("servers")
		inputs = readInputs(inner.get("inputs"))
	default:
		return nil, ErrNoServers
	}
	entries, err := objectOf(servers)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", ErrNoServers, err)
	}
	if len(entries) > MaxServers {
		return nil, fmt.Errorf("%w: %d, at most %d", ErrTooManyServers, len(entries), MaxServers)
	}
	if opt.WorkspaceFolder == "" && opt.File != "" {
		if dir := filepath.Dir(opt.File); filepath.Base(dir) == ".vscode" || filepath.Base(dir) == ".cursor" {
			opt.WorkspaceFolder = filepath.Dir(dir)
		}
	}
	r := reader{opt: opt, format: res.Format, inputs: inputs, secrets: map[string]*Secret{}}
	taken := map[string]bool{}
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.key] {
			res.Skipped = append(res.Skipped, Skipped{Original: e.key, Reason: "the file names this server twice; the first one is taken"})
			continue
		}
		seen[e.key] = true
		s, refs, reason := r.server(e.key, e.val)
		if reason != "" {
			res.Skipped = append(res.Skipped, Skipped{Original: e.key, Reason: reason})
			continue
		}
		base := capabilityName(e.key)
		if opt.Reserved != nil && opt.Reserved(base) {
			s.Notes = append(s.Notes, fmt.Sprintf("named %s-mcp: %s is the name of another capability", trimName(base, maxNameLen-4), base))
			base = trimName(base, maxNameLen-4) + "-mcp"
		}
		for opt.Reserved != nil && opt.Reserved(uniqueName(base, taken)) {
			taken[uniqueName(base, taken)] = true
		}
		s.Name = uniqueName(base, taken)
		taken[s.Name] = true
		for _, ref := range refs {
			r.use(ref, s.Name)
		}
		res.Servers = append(res.Servers, *s)
	}
	for _, s := range r.secrets {
		sort.Strings(s.From)
		s.From = slices.Compact(s.From)
		sort.Strings(s.Servers)
		s.Servers = slices.Compact(s.Servers)
		res.Secrets = append(res.Secrets, *s)
	}
	sort.Slice(res.Secrets, func(i, j int) bool { return res.Secrets[i].Name < res.Secrets[j].Name })
	return res, nil
}

// member is one key of a JSON object, in file order.
type member struct {
	key string
	val json.RawMessage
}

type object []member

func (o object) has(k string) bool { return o.get(k) != nil }

// get is the first value of key k (nil when absent).
func (o object) get(k string) json.RawMessage {
	for _, m := range o {
		if m.key == k {
			return m.val
		}
	}
	return nil
}

// objectOf reads a JSON object keeping its keys' order.
func objectOf(data json.RawMessage) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("expected an object, found %s", kindOf(data))
	}
	var out object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		out = append(out, member{key, val})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("text after the closing brace")
	}
	return out, nil
}

// kindOf names a JSON value's type in words.
func kindOf(v json.RawMessage) string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "text"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// input is one of VS Code's `inputs`.
type input struct {
	description string
	password    bool
}

func readInputs(data json.RawMessage) map[string]input {
	out := map[string]input{}
	var list []json.RawMessage
	if data == nil || json.Unmarshal(data, &list) != nil {
		return out
	}
	for _, raw := range list {
		var in struct {
			ID          string `json:"id"`
			Description string `json:"description"`
			Password    bool   `json:"password"`
		}
		if json.Unmarshal(raw, &in) != nil || in.ID == "" {
			continue
		}
		if _, dup := out[in.ID]; !dup {
			out[in.ID] = input{description: in.Description, password: in.Password}
		}
	}
	return out
}

// reader reads the servers of one file.
type reader struct {
	opt     Options
	format  Format
	inputs  map[string]input
	secrets map[string]*Secret
}

// secretRef is a secret a value references, with where it came from.
type secretRef struct {
	name, from string
	in         *input
}

func (r *reader) use(ref secretRef, capability string) {
	s := r.secrets[ref.name]
	if s == nil {
		s = &Secret{Name: ref.name}
		r.secrets[ref.name] = s
	}
	s.From = append(s.From, ref.from)
	s.Servers = append(s.Servers, capability)
	if ref.in != nil {
		if s.Prompt == "" {
			s.Prompt = ref.in.description
		}
		s.Password = s.Password || ref.in.password
	}
}

// known keys of a server entry.
var serverKeys = map[string]bool{"type": true, "command": true, "args": true, "env": true, "cwd": true,
	"url": true, "headers": true, "envFile": true}

// server reads one entry; a non-empty reason skips it.
func (r *reader) server(name string, raw json.RawMessage) (*Server, []secretRef, string) {
	obj, err := objectOf(raw)
	if err != nil {
		return nil, nil, fmt.Sprintf("the entry must be an object, not %s", kindOf(raw))
	}
	s := &Server{Original: name}
	var refs []secretRef
	sub := func(field, v string) (string, string) {
		out, rs, reason := r.resolve(v)
		if reason != "" {
			return "", field + " " + reason
		}
		refs = append(refs, rs...)
		return out, ""
	}
	str := func(key string) (string, string) {
		v := obj.get(key)
		if v == nil {
			return "", ""
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			return "", fmt.Sprintf("%s must be text, not %s", key, kindOf(v))
		}
		if strings.ContainsRune(s, 0) {
			return "", key + " contains a NUL character"
		}
		return s, ""
	}
	kind, reason := str("type")
	if reason != "" {
		return nil, nil, reason
	}
	switch kind {
	case "", "stdio", "http", "streamable-http", "streamableHttp":
	case "sse":
		return nil, nil, "it uses the SSE transport, which Wrasse does not speak (it speaks stdio and streamable HTTP); if the server also serves streamable HTTP, add it with its URL"
	default:
		return nil, nil, fmt.Sprintf("its type %q is not one Wrasse knows (stdio or http)", kind)
	}
	for _, m := range obj {
		if !serverKeys[m.key] {
			s.Notes = append(s.Notes, fmt.Sprintf("the key %q is not used", m.key))
		}
	}
	sort.Strings(s.Notes)
	s.Notes = slices.Compact(s.Notes)
	if s.Command, reason = str("command"); reason != "" {
		return nil, nil, reason
	}
	if s.URL, reason = str("url"); reason != "" {
		return nil, nil, reason
	}
	switch {
	case s.Command != "" && s.URL != "":
		return nil, nil, "it sets both command and url; a server is one or the other"
	case s.Command == "" && s.URL == "":
		return nil, nil, "it has neither a command to run nor a url to reach"
	case kind == "stdio" && s.Command == "":
		return nil, nil, "its type is stdio but it has no command"
	case kind != "" && kind != "stdio" && s.URL == "":
		return nil, nil, "its type is http but it has no url"
	}
	if s.Command != "" {
		if s.Command, reason = sub("command", s.Command); reason != "" {
			return nil, nil, reason
		}
		if strings.TrimSpace(s.Command) == "" {
			return nil, nil, "its command is blank"
		}
		if v := obj.get("args"); v != nil {
			var args []any
			if json.Unmarshal(v, &args) != nil {
				return nil, nil, fmt.Sprintf("args must be a list of text, not %s", kindOf(v))
			}
			for i, a := range args {
				t, ok := a.(string)
				if !ok {
					return nil, nil, fmt.Sprintf("args[%d] must be text, not %s", i, typeWord(a))
				}
				if strings.ContainsRune(t, 0) {
					return nil, nil, fmt.Sprintf("args[%d] contains a NUL character", i)
				}
				if t, reason = sub(fmt.Sprintf("args[%d]", i), t); reason != "" {
					return nil, nil, reason
				}
				s.Args = append(s.Args, t)
			}
		}
		cwd, reason := str("cwd")
		if reason != "" {
			return nil, nil, reason
		}
		if s.Cwd, reason = sub("cwd", cwd); reason != "" {
			return nil, nil, reason
		}
		env := map[string]string{}
		if v := obj.get("envFile"); v != nil {
			file, reason := str("envFile")
			if reason != "" {
				return nil, nil, reason
			}
			if file, reason = sub("envFile", file); reason != "" {
				return nil, nil, reason
			}
			if env, reason = r.envFile(file); reason != "" {
				return nil, nil, reason
			}
		}
		explicit, reason := stringMap(obj.get("env"), "env", skillmd.ValidEnvName)
		if reason != "" {
			return nil, nil, reason
		}
		for k, v := range explicit {
			env[k] = v // the file's own env wins over its envFile
		}
		for _, k := range sortedKeys(env) {
			if env[k], reason = sub("env."+k, env[k]); reason != "" {
				return nil, nil, reason
			}
		}
		if len(env) > 0 {
			s.Env = env
		}
		if obj.has("headers") {
			s.Notes = append(s.Notes, "headers are only sent to servers reached by url; they are not used")
		}
		return s, refs, ""
	}
	if s.URL, reason = sub("url", s.URL); reason != "" {
		return nil, nil, reason
	}
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, nil, fmt.Sprintf("its url %q is not an http or https address", s.URL)
	}
	headers, reason := stringMap(obj.get("headers"), "headers", skillmd.ValidHeaderName)
	if reason != "" {
		return nil, nil, reason
	}
	for _, k := range sortedKeys(headers) {
		if strings.ContainsAny(headers[k], "\r\n") {
			return nil, nil, fmt.Sprintf("headers.%s contains a line break", k)
		}
		if headers[k], reason = sub("headers."+k, headers[k]); reason != "" {
			return nil, nil, reason
		}
	}
	if len(headers) > 0 {
		s.Headers = headers
	}
	for _, k := range []string{"args", "env", "envFile", "cwd"} {
		if obj.has(k) {
			s.Notes = append(s.Notes, fmt.Sprintf("%s is only for servers Wrasse runs; it is not used for one reached by url", k))
		}
	}
	return s, refs, ""
}

func typeWord(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "text"
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// stringMap reads an object of text values; a wrong type or key is the
// reason to skip.
func stringMap(data json.RawMessage, field string, validKey func(string) bool) (map[string]string, string) {
	if data == nil {
		return nil, ""
	}
	obj, err := objectOf(data)
	if err != nil {
		return nil, fmt.Sprintf("%s must be an object of text values, not %s", field, kindOf(data))
	}
	out := map[string]string{}
	for _, m := range obj {
		var v string
		if json.Unmarshal(m.val, &v) != nil {
			return nil, fmt.Sprintf("%s.%s must be text, not %s", field, m.key, kindOf(m.val))
		}
		if !validKey(m.key) {
			return nil, fmt.Sprintf("%s has the name %q, which cannot be used", field, m.key)
		}
		if strings.ContainsRune(v, 0) {
			return nil, fmt.Sprintf("%s.%s contains a NUL character", field, m.key)
		}
		out[m.key] = v
	}
	return out, ""
}

// envFile reads a VS Code envFile: KEY=VALUE lines, # comments, optional
// `export`, quotes stripped.
func (r *reader) envFile(path string) (map[string]string, string) {
	if r.opt.ReadFile == nil {
		return nil, fmt.Sprintf("it reads its environment from %s, which was not read", path)
	}
	if !filepath.IsAbs(path) && r.opt.File != "" {
		path = filepath.Join(filepath.Dir(r.opt.File), path)
	}
	data, err := r.opt.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Sprintf("its envFile %s does not exist", path)
		}
		return nil, fmt.Sprintf("its envFile %s cannot be read: %v", path, err)
	}
	if len(data) > MaxEnvFileSize {
		return nil, fmt.Sprintf("its envFile %s is over %d bytes", path, MaxEnvFileSize)
	}
	out := map[string]string{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || !skillmd.ValidEnvName(k) || strings.ContainsAny(k, " \t") {
			return nil, fmt.Sprintf("its envFile %s line %d is not KEY=VALUE", path, n+1)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		if strings.ContainsRune(v, 0) {
			return nil, fmt.Sprintf("its envFile %s line %d contains a NUL character", path, n+1)
		}
		out[k] = v
	}
	return out, ""
}

// resolve replaces the variables of a value: ${env:VAR} and ${input:ID}
// become ${secret:NAME}; ${userHome}, ${workspaceFolder},
// ${workspaceFolderBasename}, ${pathSeparator} and ${/} are filled in;
// ${secret:NAME} stays. Anything else is a reason to skip.
func (r *reader) resolve(v string) (string, []secretRef, string) {
	if !strings.Contains(v, "${") {
		return v, nil, ""
	}
	var b strings.Builder
	var refs []secretRef
	for {
		i := strings.Index(v, "${")
		if i < 0 {
			b.WriteString(v)
			break
		}
		j := strings.IndexByte(v[i:], '}')
		if j < 0 {
			b.WriteString(v)
			break
		}
		b.WriteString(v[:i])
		expr := v[i+2 : i+j]
		v = v[i+j+1:]
		kind, arg, hasArg := strings.Cut(expr, ":")
		switch {
		case hasArg && kind == "env" && arg != "":
			name := secretName(arg)
			refs = append(refs, secretRef{name: name, from: "env:" + arg})
			b.WriteString("${secret:" + name + "}")
		case hasArg && kind == "input" && arg != "":
			in, ok := r.inputs[arg]
			if !ok {
				return "", nil, fmt.Sprintf("uses ${input:%s}, which the file's inputs do not declare", arg)
			}
			name := secretName(arg)
			refs = append(refs, secretRef{name: name, from: "input:" + arg, in: &in})
			b.WriteString("${secret:" + name + "}")
		case hasArg && kind == "secret" && arg != "":
			name := secretName(arg)
			refs = append(refs, secretRef{name: name, from: "secret:" + arg})
			b.WriteString("${secret:" + name + "}")
		case expr == "userHome":
			if r.opt.Home == "" {
				return "", nil, "uses ${userHome}, and the home folder is not known"
			}
			b.WriteString(r.opt.Home)
		case expr == "workspaceFolder" || expr == "workspaceFolderBasename":
			if r.opt.WorkspaceFolder == "" {
				return "", nil, fmt.Sprintf("uses ${%s}, and the file is not in a project's .vscode folder", expr)
			}
			if expr == "workspaceFolder" {
				b.WriteString(r.opt.WorkspaceFolder)
			} else {
				b.WriteString(filepath.Base(r.opt.WorkspaceFolder))
			}
		case expr == "pathSeparator" || expr == "/":
			b.WriteByte(filepath.Separator)
		default:
			return "", nil, fmt.Sprintf("uses ${%s}, which Wrasse cannot fill in", expr)
		}
	}
	return b.String(), refs, ""
}
