package skillmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/adrg/frontmatter"
	goccy "github.com/goccy/go-yaml"
	goccyparser "github.com/goccy/go-yaml/parser"
	"go.yaml.in/yaml/v3"
)

// Limits of the format.
const (
	MaxFileSize          = 1 << 20
	MaxNameLength        = 64
	MaxDescriptionLength = 1024
	MaxCompatibility     = 500
	MaxToolNameLength    = 64
	// MaxToolTimeout bounds a tool's declared per-call deadline.
	MaxToolTimeout = time.Hour
)

var (
	nameRe     = regexp.MustCompile(`^[a-z0-9-]{1,64}$`)
	toolNameRe = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
)

// ValidName reports whether s is a valid capability name.
func ValidName(s string) bool {
	return nameRe.MatchString(s) && !strings.HasPrefix(s, "-") && !strings.HasSuffix(s, "-") && !strings.Contains(s, "--")
}

// ValidToolName reports whether s is a valid tool name.
func ValidToolName(s string) bool { return toolNameRe.MatchString(s) }

// Options tell the parser where the text came from.
type Options struct {
	// File is the name used in messages (e.g. "notes/SKILL.md").
	File string
	// Folder is the capability folder's base name; a different `name` is a warning.
	Folder string
}

// knownKeys are the top-level keys of the format.
var knownKeys = map[string]bool{
	"name": true, "description": true, "version": true, "license": true, "compatibility": true,
	"metadata": true, "allowed-tools": true, "triggers": true, "keywords": true, "tags": true,
	"core": true, "requires": true, "tools": true, "danger_patterns": true, "confirm_patterns": true,
	"permissions": true, "mcp": true, "settings": true,
}

// Parse reads a SKILL.md. It returns the manifest and nil, or nil and an
// *Error listing every error-level problem at once. Warnings ride on the
// manifest.
//
// The frontmatter is decoded into a YAML node tree (go.yaml.in/yaml/v3, fast,
// with a line and column on every node); a syntax error is re-read with
// goccy/go-yaml, whose errors carry the column too.
func Parse(data []byte, opt Options) (*Manifest, error) {
	if opt.File == "" {
		opt.File = "SKILL.md"
	}
	p := &parse{file: opt.File}
	if len(data) > MaxFileSize {
		return nil, &Error{File: opt.File, cause: ErrTooLarge, Problems: []Problem{{File: opt.File,
			Message: fmt.Sprintf("file is %d bytes; the limit is %d (move long material to references/)", len(data), MaxFileSize)}}}
	}
	text := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	p.text = text

	var fm []byte
	found := false
	format := frontmatter.NewFormat("---", "---", func(b []byte, _ any) error {
		fm = append([]byte(nil), b...)
		found = true
		return nil
	})
	var sink struct{}
	body, err := frontmatter.Parse(bytes.NewReader(text), &sink, format)
	opens := bytes.HasPrefix(bytes.TrimLeft(text, " \t\n"), []byte("---"))
	if opens && (err != nil || !found) {
		return nil, &Error{File: opt.File, cause: ErrNoFrontmatter, Problems: []Problem{{File: opt.File, Line: 1,
			Message: "the frontmatter opens with --- but is never closed: add a line `---` after the last field"}}}
	}
	if err != nil || !found || !opens {
		return nil, &Error{File: opt.File, cause: ErrNoFrontmatter, Problems: []Problem{{File: opt.File, Line: 1,
			Message: "SKILL.md must start with a YAML frontmatter block: a line `---`, the fields, and a closing `---` line"}}}
	}
	if i := bytes.Index(text, fm); i >= 0 && len(fm) > 0 {
		p.lineOffset = bytes.Count(text[:i], []byte("\n"))
	} else {
		p.lineOffset = 1
	}

	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		p.yamlError(fm, err)
		return nil, p.result()
	}
	if err := checkAliases(&doc); err != nil {
		p.errorf(nil, "", "%v", err)
		return nil, p.result()
	}
	m := &Manifest{Body: strings.TrimSpace(string(body))}
	m.Headings = headings(m.Body)
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind == 0 || (root.Kind == yaml.ScalarNode && root.Tag == "!!null") {
		p.errorf(nil, "", "the frontmatter is empty: add at least name and description")
		return nil, p.result()
	}
	if root.Kind != yaml.MappingNode {
		p.errorf(root, "", "the frontmatter must be a mapping of fields (name: ..., description: ...), not %s", describe(root))
		return nil, p.result()
	}
	p.manifest(m, root, opt)
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	m.Warnings = p.warns
	return m, nil
}

type parse struct {
	file       string
	text       []byte
	lines      []string
	lineOffset int
	errs       []Problem
	warns      []Problem
}

// result reports the errors in file order.
func (p *parse) result() error {
	sort.SliceStable(p.errs, func(i, j int) bool {
		a, b := p.errs[i], p.errs[j]
		if (a.Line == 0) != (b.Line == 0) {
			return a.Line == 0 // whole-file problems (missing fields) first
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return &Error{File: p.file, Problems: p.errs}
}

// yamlError turns a YAML syntax error into a problem with its real line and column.
func (p *parse) yamlError(fm []byte, err error) {
	prob := Problem{File: p.file, Message: "YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	// Parse only (no decoding): decoding would expand aliases.
	if _, gerr := goccyparser.ParseBytes(fm, 0); gerr != nil {
		var ye goccy.Error
		if errors.As(gerr, &ye) {
			prob.Message = "YAML: " + ye.GetMessage()
			if tok := ye.GetToken(); tok != nil && tok.Position != nil {
				prob.Line = tok.Position.Line + p.lineOffset
				prob.Column = tok.Position.Column
			}
		}
	}
	if prob.Line == 0 {
		// yaml.v3 says "line N: ..." without a column.
		var n int
		if _, serr := fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &n); serr == nil {
			prob.Line = n + p.lineOffset
		}
	}
	if strings.Contains(prob.Message, "mapping value") {
		prob.Message += " (a value containing \": \" must be quoted)"
	}
	prob.Snippet = p.snippet(prob.Line, prob.Column)
	p.errs = append(p.errs, prob)
}

func (p *parse) add(warning bool, n *yaml.Node, field, format string, args ...any) {
	line, col := 0, 0
	if n != nil && n.Line > 0 {
		line, col = n.Line+p.lineOffset, n.Column
	}
	prob := Problem{File: p.file, Line: line, Column: col, Field: field, Message: fmt.Sprintf(format, args...), Warning: warning}
	if !warning {
		prob.Snippet = p.snippet(line, col)
		p.errs = append(p.errs, prob)
		return
	}
	p.warns = append(p.warns, prob)
}

func (p *parse) errorf(n *yaml.Node, field, format string, args ...any) {
	p.add(false, n, field, format, args...)
}

func (p *parse) warnf(n *yaml.Node, field, format string, args ...any) {
	p.add(true, n, field, format, args...)
}

// snippet shows the line before, the line, and a caret under the column.
func (p *parse) snippet(line, col int) string {
	if p.lines == nil {
		p.lines = strings.Split(string(p.text), "\n")
	}
	if line <= 0 || line > len(p.lines) {
		return ""
	}
	var b strings.Builder
	for l := max(1, line-1); l <= min(len(p.lines), line+1); l++ {
		mark := "  "
		if l == line {
			mark = "> "
		}
		fmt.Fprintf(&b, "%s%4d | %s\n", mark, l, p.lines[l-1])
		if l == line && col > 0 {
			fmt.Fprintf(&b, "       | %s^\n", strings.Repeat(" ", col-1))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// pair is one key and value of a mapping.
type pair struct {
	key   string
	kNode *yaml.Node
	val   *yaml.Node
}

// pairs lists a mapping's entries, resolving aliases and reporting duplicate keys.
func (p *parse) pairs(n *yaml.Node, field string) []pair {
	var out []pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if seen[k.Value] {
			p.errorf(k, join(field, k.Value), "key is defined twice; keep one")
			continue
		}
		seen[k.Value] = true
		out = append(out, pair{key: k.Value, kNode: k, val: v})
	}
	return out
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

func (p *parse) manifest(m *Manifest, root *yaml.Node, opt Options) {
	seen := map[string]*yaml.Node{}
	for _, kv := range p.pairs(root, "") {
		if !knownKeys[kv.key] {
			p.warnf(kv.kNode, kv.key, "unknown key is ignored")
			continue
		}
		seen[kv.key] = kv.val
	}

	// name
	if v, ok := seen["name"]; !ok {
		p.errorf(nil, "name", "required: add `name: your-capability` (lowercase letters, digits and -)")
	} else if s, ok := p.str(v, "name"); ok {
		switch {
		case s == "":
			p.errorf(v, "name", "must not be empty")
		case !ValidName(s):
			p.errorf(v, "name", "%q is not a valid name: use 1-%d lowercase letters, digits and single hyphens, not starting or ending with -", s, MaxNameLength)
		default:
			m.Name = s
			if opt.Folder != "" && opt.Folder != s {
				p.warnf(v, "name", "%q differs from its folder name %q; the capability is registered as %q", s, opt.Folder, s)
			}
		}
	}
	// description
	if v, ok := seen["description"]; !ok {
		p.errorf(nil, "description", "required: say what the capability does and when to use it")
	} else if s, ok := p.str(v, "description"); ok {
		s = strings.TrimSpace(s)
		if s == "" {
			p.errorf(v, "description", "must not be empty")
		} else if len(s) > MaxDescriptionLength {
			p.warnf(v, "description", "is %d characters; keep it under %d (only the first 90 show in the index)", len(s), MaxDescriptionLength)
		}
		m.Description = s
	}
	m.Version = p.scalarField(seen, "version")
	m.License = p.scalarField(seen, "license")
	m.Compatibility = p.scalarField(seen, "compatibility")
	if len(m.Compatibility) > MaxCompatibility {
		p.warnf(seen["compatibility"], "compatibility", "is %d characters; keep it under %d", len(m.Compatibility), MaxCompatibility)
	}
	if v, ok := seen["metadata"]; ok && !isNull(v) {
		m.Metadata = p.stringMap(v, "metadata")
	}
	if v, ok := seen["allowed-tools"]; ok && !isNull(v) {
		if v.Kind == yaml.ScalarNode {
			m.AllowedTools = strings.Fields(v.Value)
		} else {
			m.AllowedTools = p.strList(v, "allowed-tools")
		}
	}
	m.Triggers = p.listField(seen, "triggers")
	m.Keywords = p.listField(seen, "keywords")
	m.Tags = p.listField(seen, "tags")
	if v, ok := seen["core"]; ok && !isNull(v) {
		if b, ok := boolValue(v); ok {
			m.Core = b
		} else {
			p.errorf(v, "core", "must be true or false, not %s", describe(v))
		}
	}
	if v, ok := seen["requires"]; ok && !isNull(v) {
		m.Requires = p.strList(v, "requires")
		for i, r := range m.Requires {
			node := v
			if v.Kind == yaml.SequenceNode && i < len(v.Content) {
				node = v.Content[i]
			}
			field := fmt.Sprintf("requires[%d]", i)
			if !ValidName(r) {
				p.errorf(node, field, "%q is not a capability name", r)
			} else if r == m.Name && m.Name != "" {
				p.errorf(node, field, "a capability cannot require itself")
			}
		}
	}
	if v, ok := seen["tools"]; ok && !isNull(v) {
		m.Tools = p.tools(v)
	}
	m.DangerPatterns = p.patterns(seen, "danger_patterns")
	m.ConfirmPatterns = p.patterns(seen, "confirm_patterns")
	if v, ok := seen["permissions"]; ok && !isNull(v) {
		m.Permissions = p.permissions(v)
	}
	if v, ok := seen["mcp"]; ok && !isNull(v) {
		m.MCP = p.mcp(v)
	}
	if v, ok := seen["settings"]; ok && !isNull(v) {
		m.Settings = p.settings(v) // settings.go
	}
	if m.MCP != nil && len(m.Tools) > 0 {
		p.warnf(seen["tools"], "tools", "an MCP capability gets its tools from the server; the declared list is used only until the server answers")
	}
	if m.Body == "" && len(m.Tools) == 0 && m.MCP == nil {
		p.warnf(nil, "body", "a guide with no instructions: add Markdown after the frontmatter")
	}
}

func boolValue(n *yaml.Node) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return false, false
	}
	b, err := strconv.ParseBool(strings.ToLower(n.Value))
	return b, err == nil
}

// str accepts a string scalar; other values are an error naming their type.
func (p *parse) str(n *yaml.Node, field string) (string, bool) {
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "" && n.Tag != "!") {
		p.errorf(n, field, "must be a string, not %s", describe(n))
		return "", false
	}
	return n.Value, true
}

// scalarField accepts any scalar (version: 1.0 is common) as text.
func (p *parse) scalarField(seen map[string]*yaml.Node, key string) string {
	v, ok := seen[key]
	if !ok || isNull(v) {
		return ""
	}
	if v.Kind != yaml.ScalarNode {
		p.errorf(v, key, "must be a single value, not %s", describe(v))
		return ""
	}
	return v.Value
}

func (p *parse) listField(seen map[string]*yaml.Node, key string) []string {
	v, ok := seen[key]
	if !ok || isNull(v) {
		return nil
	}
	return p.strList(v, key)
}

func (p *parse) strList(v *yaml.Node, field string) []string {
	if v.Kind != yaml.SequenceNode {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
			p.errorf(v, field, "must be a list of strings; write it as [%q] or one `- item` per line", v.Value)
		} else {
			p.errorf(v, field, "must be a list of strings, not %s", describe(v))
		}
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for i, e := range v.Content {
		e = deref(e)
		if e.Kind != yaml.ScalarNode || isNull(e) {
			p.errorf(e, fmt.Sprintf("%s[%d]", field, i), "must be a string, not %s", describe(e))
			continue
		}
		if s := strings.TrimSpace(e.Value); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (p *parse) stringMap(v *yaml.Node, field string) map[string]string {
	if v.Kind != yaml.MappingNode {
		p.errorf(v, field, "must be a mapping of keys to strings, not %s", describe(v))
		return nil
	}
	out := map[string]string{}
	for _, kv := range p.pairs(v, field) {
		if kv.val.Kind != yaml.ScalarNode {
			p.errorf(kv.val, join(field, kv.key), "must be a string, not %s", describe(kv.val))
			continue
		}
		out[kv.key] = kv.val.Value
	}
	return out
}

var toolKeys = map[string]bool{"name": true, "description": true, "parameters": true, "annotations": true,
	"timeout": true, "outputSchema": true, "inputSchema": true}

func (p *parse) tools(v *yaml.Node) []Tool {
	if v.Kind != yaml.SequenceNode {
		p.errorf(v, "tools", "must be a list of tools (each with name, description and parameters), not %s", describe(v))
		return nil
	}
	var out []Tool
	names := map[string]int{}
	for i, e := range v.Content {
		e = deref(e)
		field := fmt.Sprintf("tools[%d]", i)
		if e.Kind != yaml.MappingNode {
			p.errorf(e, field, "must be a mapping with name, description and parameters, not %s", describe(e))
			continue
		}
		t := Tool{}
		fields := map[string]*yaml.Node{}
		for _, kv := range p.pairs(e, field) {
			if !toolKeys[kv.key] {
				p.warnf(kv.kNode, join(field, kv.key), "unknown key is ignored")
				continue
			}
			fields[kv.key] = kv.val
		}
		okTool := true
		if nv, ok := fields["name"]; !ok {
			p.errorf(e, field+".name", "required")
			okTool = false
		} else if s, ok := p.str(nv, field+".name"); ok {
			if !ValidToolName(s) {
				p.errorf(nv, field+".name", "%q must match ^[a-zA-Z0-9_-]{1,64}$", s)
				okTool = false
			} else if j, dup := names[s]; dup {
				p.errorf(nv, field+".name", "tool %q is declared twice (also tools[%d])", s, j)
				okTool = false
			} else {
				names[s] = i
				t.Name = s
				field = fmt.Sprintf("tools[%d] (%s)", i, s)
			}
		} else {
			okTool = false
		}
		if dv, ok := fields["description"]; !ok {
			p.errorf(e, field+".description", "required: tell the model what the tool does")
		} else if s, ok := p.str(dv, field+".description"); ok {
			t.Description = strings.TrimSpace(s)
			if t.Description == "" {
				p.errorf(dv, field+".description", "must not be empty")
			}
		}
		params, hasParams := fields["parameters"]
		if !hasParams {
			params, hasParams = fields["inputSchema"]
		}
		if !hasParams || isNull(params) {
			t.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
		} else if raw, ok := p.objectSchema(params, field+".parameters"); ok {
			t.Parameters = raw
		}
		if ov, ok := fields["outputSchema"]; ok && !isNull(ov) {
			if raw, ok := p.schema(ov, field+".outputSchema"); ok {
				t.OutputSchema = raw
			}
		}
		if av, ok := fields["annotations"]; ok && !isNull(av) {
			t.Annotations = p.annotations(av, field+".annotations")
		}
		if tv, ok := fields["timeout"]; ok && !isNull(tv) {
			t.Timeout = p.duration(tv, field+".timeout")
		}
		if okTool {
			out = append(out, t)
		}
	}
	return out
}

var jsonTypes = map[string]bool{"object": true, "array": true, "string": true, "number": true, "integer": true, "boolean": true, "null": true}

// objectSchema checks that v is a JSON Schema for an argument object and
// returns it as JSON. The check is structural (type, properties, required);
// the registry compiles it fully before the first call and `wrasse caps
// validate` compiles it at once.
func (p *parse) objectSchema(v *yaml.Node, field string) (json.RawMessage, bool) {
	if v.Kind != yaml.MappingNode {
		p.errorf(v, field, "must be a JSON Schema object (type: object, properties: ...), not %s", describe(v))
		return nil, false
	}
	good := true
	var props map[string]bool
	var typeNode *yaml.Node
	for _, kv := range p.pairs(v, field) {
		switch kv.key {
		case "type":
			typeNode = kv.val
			if kv.val.Kind != yaml.ScalarNode || kv.val.Value != "object" {
				p.errorf(kv.val, field+".type", "must be \"object\", not %s", describe(kv.val))
				good = false
			}
		case "properties":
			if kv.val.Kind != yaml.MappingNode {
				p.errorf(kv.val, field+".properties", "must be a mapping of argument name to schema, not %s", describe(kv.val))
				good = false
				continue
			}
			props = map[string]bool{}
			for _, prop := range p.pairs(kv.val, field+".properties") {
				props[prop.key] = true
				if !p.checkPropertySchema(prop.val, field+".properties."+prop.key) {
					good = false
				}
			}
		}
	}
	if typeNode == nil {
		p.errorf(v, field, "must say `type: object` (a full JSON Schema for the argument object)")
		good = false
	}
	for _, kv := range p.pairs(v, field) {
		if kv.key != "required" {
			continue
		}
		if kv.val.Kind != yaml.SequenceNode {
			p.errorf(kv.val, field+".required", "must be a list of argument names, not %s", describe(kv.val))
			good = false
			continue
		}
		for i, r := range kv.val.Content {
			if r.Kind != yaml.ScalarNode {
				p.errorf(r, fmt.Sprintf("%s.required[%d]", field, i), "must be a string")
				good = false
				continue
			}
			if !props[r.Value] {
				p.errorf(r, fmt.Sprintf("%s.required[%d]", field, i), "%q is required but not listed in properties", r.Value)
				good = false
			}
		}
	}
	if !good {
		return nil, false
	}
	return p.toJSON(v, field)
}

func (p *parse) toJSON(v *yaml.Node, field string) (json.RawMessage, bool) {
	var b bytes.Buffer
	if err := writeJSON(&b, v, 0); err != nil {
		p.errorf(v, field, "cannot be written as JSON: %v", err)
		return nil, false
	}
	return json.RawMessage(b.Bytes()), true
}

// writeJSON encodes a YAML node as JSON directly (keys keep their source
// order), which is much cheaper than decoding to maps and marshalling.
func writeJSON(b *bytes.Buffer, n *yaml.Node, depth int) error {
	n = deref(n)
	if depth > 64 {
		return errors.New("nested too deeply")
	}
	switch n.Kind {
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			b.Write(k)
			b.WriteByte(':')
			if err := writeJSON(b, n.Content[i+1], depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, e := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, e, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			b.WriteString("null")
		case "!!bool":
			v, _ := boolValue(n)
			b.WriteString(strconv.FormatBool(v))
		case "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return err
			}
			f, ok := toFloat(v)
			if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
				return fmt.Errorf("%q is not a JSON number", n.Value)
			}
			out, err := json.Marshal(v)
			if err != nil {
				return err
			}
			b.Write(out)
		default:
			out, _ := json.Marshal(n.Value)
			b.Write(out)
		}
	default:
		return fmt.Errorf("unsupported YAML node")
	}
	return nil
}

func toFloat(v any) (float64, bool) {
	switch t := v.(type) {
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case uint64:
		return float64(t), true
	case float64:
		return t, true
	}
	return 0, false
}

func (p *parse) checkPropertySchema(v *yaml.Node, field string) bool {
	switch v.Kind {
	case yaml.ScalarNode:
		if _, ok := boolValue(v); ok {
			return true
		}
	case yaml.MappingNode:
		for _, kv := range p.pairs(v, field) {
			switch kv.key {
			case "type":
				switch kv.val.Kind {
				case yaml.ScalarNode:
					if !jsonTypes[kv.val.Value] {
						p.errorf(kv.val, field+".type", "%q is not a JSON Schema type (use string, number, integer, boolean, array, object or null)", kv.val.Value)
						return false
					}
				case yaml.SequenceNode:
					for _, x := range kv.val.Content {
						if x.Kind != yaml.ScalarNode || !jsonTypes[x.Value] {
							p.errorf(x, field+".type", "%s is not a JSON Schema type", describe(x))
							return false
						}
					}
				default:
					p.errorf(kv.val, field+".type", "must be a type name, not %s", describe(kv.val))
					return false
				}
			case "enum":
				if kv.val.Kind != yaml.SequenceNode {
					p.errorf(kv.val, field+".enum", "must be a list of allowed values")
					return false
				}
			}
		}
		return true
	}
	p.errorf(v, field, "must be a schema mapping (type, description, ...), not %s", describe(v))
	return false
}

func (p *parse) schema(v *yaml.Node, field string) (json.RawMessage, bool) {
	if v.Kind != yaml.MappingNode {
		if _, ok := boolValue(v); !ok {
			p.errorf(v, field, "must be a JSON Schema mapping, not %s", describe(v))
			return nil, false
		}
	}
	return p.toJSON(v, field)
}

func (p *parse) annotations(v *yaml.Node, field string) Annotations {
	var a Annotations
	if v.Kind != yaml.MappingNode {
		p.errorf(v, field, "must be a mapping (readOnly, destructive, idempotent), not %s", describe(v))
		return a
	}
	for _, kv := range p.pairs(v, field) {
		var dst *bool
		switch kv.key {
		case "readOnly", "readOnlyHint":
			dst = &a.ReadOnly
		case "destructive", "destructiveHint":
			dst = &a.Destructive
		case "idempotent", "idempotentHint":
			dst = &a.Idempotent
		default:
			p.warnf(kv.kNode, join(field, kv.key), "unknown annotation is ignored (known: readOnly, destructive, idempotent)")
			continue
		}
		b, ok := boolValue(kv.val)
		if !ok {
			p.errorf(kv.val, join(field, kv.key), "must be true or false, not %s", describe(kv.val))
			continue
		}
		*dst = b
	}
	return a
}

func (p *parse) duration(v *yaml.Node, field string) time.Duration {
	if v.Kind == yaml.ScalarNode {
		switch v.Tag {
		case "!!str":
			d, err := time.ParseDuration(v.Value)
			if err != nil || d <= 0 {
				p.errorf(v, field, "%q is not a duration; write e.g. 90s or 5m", v.Value)
				return 0
			}
			if d > MaxToolTimeout {
				p.errorf(v, field, "%s is longer than the limit of %s", d, MaxToolTimeout)
				return 0
			}
			return d
		case "!!int", "!!float":
			f, err := strconv.ParseFloat(v.Value, 64)
			if err != nil || f <= 0 || math.IsInf(f, 0) || f > MaxToolTimeout.Seconds() {
				p.errorf(v, field, "must be a positive number of seconds (at most %s) or a duration like 90s", MaxToolTimeout)
				return 0
			}
			return time.Duration(f * float64(time.Second))
		}
	}
	p.errorf(v, field, "must be a duration like 90s, not %s", describe(v))
	return 0
}

func (p *parse) patterns(seen map[string]*yaml.Node, key string) []Pattern {
	v, ok := seen[key]
	if !ok || isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		p.errorf(v, key, "must be a list of regular expressions (a string or {pattern, reason} each), not %s", describe(v))
		return nil
	}
	var out []Pattern
	for i, e := range v.Content {
		e = deref(e)
		ef := fmt.Sprintf("%s[%d]", key, i)
		var pat Pattern
		at := e
		switch e.Kind {
		case yaml.ScalarNode:
			pat.Pattern = e.Value
		case yaml.MappingNode:
			for _, kv := range p.pairs(e, ef) {
				switch kv.key {
				case "pattern":
					if kv.val.Kind != yaml.ScalarNode {
						p.errorf(kv.val, ef+".pattern", "must be a string")
						continue
					}
					pat.Pattern = kv.val.Value
					at = kv.val
				case "reason":
					pat.Reason = kv.val.Value
				case "level":
					// Accepted from Wolffish-style files; the list it sits in decides the level.
				default:
					p.warnf(kv.kNode, join(ef, kv.key), "unknown key is ignored")
				}
			}
		default:
			p.errorf(e, ef, "must be a string or {pattern, reason}, not %s", describe(e))
			continue
		}
		if pat.Pattern == "" {
			p.errorf(at, ef, "pattern is missing or empty")
			continue
		}
		re, err := regexp.Compile("(?i)" + pat.Pattern)
		if err != nil {
			p.errorf(at, ef, "%q is not a valid regular expression: %v", pat.Pattern, err)
			continue
		}
		if re.MatchString("") {
			p.errorf(at, ef, "%q matches the empty string, so it would match every call; make it specific", pat.Pattern)
			continue
		}
		pat.Re = re
		pat.DotAll = regexp.MustCompile("(?is)" + pat.Pattern) // valid: Re compiled
		out = append(out, pat)
	}
	return out
}

func (p *parse) permissions(v *yaml.Node) Permissions {
	out := Permissions{}
	add := func(name string, at *yaml.Node, field string, scope []string) {
		for _, k := range KnownPermissions {
			if k == name {
				out[name] = scope
				return
			}
		}
		p.errorf(at, field, "unknown permission %q (known: %s)", name, strings.Join(KnownPermissions, ", "))
	}
	switch v.Kind {
	case yaml.SequenceNode:
		for i, e := range v.Content {
			field := fmt.Sprintf("permissions[%d]", i)
			if e.Kind != yaml.ScalarNode {
				p.errorf(e, field, "must be a permission name")
				continue
			}
			add(e.Value, e, field, nil)
		}
	case yaml.MappingNode:
		for _, kv := range p.pairs(v, "permissions") {
			field := "permissions." + kv.key
			switch {
			case isNull(kv.val):
				add(kv.key, kv.kNode, field, nil)
			case kv.val.Kind == yaml.ScalarNode && kv.val.Tag == "!!bool":
				if b, _ := boolValue(kv.val); b {
					add(kv.key, kv.kNode, field, nil)
				}
			case kv.val.Kind == yaml.ScalarNode:
				add(kv.key, kv.kNode, field, []string{kv.val.Value})
			case kv.val.Kind == yaml.SequenceNode:
				add(kv.key, kv.kNode, field, p.strList(kv.val, field))
			default:
				p.errorf(kv.val, field, "must be true, or a list of what it covers, not %s", describe(kv.val))
			}
		}
	default:
		p.errorf(v, "permissions", "must be a list (e.g. [exec, network]) or a mapping, not %s", describe(v))
	}
	return out
}

func (p *parse) mcp(v *yaml.Node) *MCPServer {
	if v.Kind != yaml.MappingNode {
		p.errorf(v, "mcp", "must be a mapping with command (and args) or url, not %s", describe(v))
		return nil
	}
	s := &MCPServer{}
	at := map[string]*yaml.Node{} // where each field was written, for secret-place problems
	for _, kv := range p.pairs(v, "mcp") {
		field := "mcp." + kv.key
		at[field] = kv.val
		if kv.key == "args" && kv.val.Kind == yaml.SequenceNode {
			i := 0
			for _, e := range kv.val.Content {
				if e = deref(e); e.Kind == yaml.ScalarNode && strings.TrimSpace(e.Value) != "" {
					at[fmt.Sprintf("mcp.args[%d]", i)] = e
					i++
				}
			}
		}
		switch kv.key {
		case "command":
			s.Command, _ = p.str(kv.val, field)
		case "url":
			s.URL, _ = p.str(kv.val, field)
			if s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
				p.errorf(kv.val, field, "must be an http:// or https:// address of a streamable HTTP server, not %q", s.URL)
			}
		case "args":
			s.Args = p.strList(kv.val, field)
		case "env":
			s.Env = p.stringMap(kv.val, field)
		case "cwd":
			s.Cwd, _ = p.str(kv.val, field)
		case "headers":
			s.Headers = p.stringMap(kv.val, field)
		case "secrets":
			s.Secrets = p.stringMap(kv.val, field)
		case "oauth":
			s.OAuth = p.mcpOAuth(kv.val, field)
		case "idle":
			s.Idle = p.duration(kv.val, field)
		case "timeouts":
			if kv.val.Kind != yaml.MappingNode {
				p.errorf(kv.val, field, "must be a mapping with connect and call durations (e.g. {connect: 30s, call: 2m}), not %s", describe(kv.val))
				continue
			}
			for _, tv := range p.pairs(kv.val, field) {
				switch tv.key {
				case "connect":
					s.ConnectTimeout = p.duration(tv.val, field+".connect")
				case "call":
					s.CallTimeout = p.duration(tv.val, field+".call")
				default:
					p.warnf(tv.kNode, field+"."+tv.key, "unknown key is ignored (known: connect, call)")
				}
			}
		default:
			p.warnf(kv.kNode, field, "unknown key is ignored")
		}
	}
	if (s.Command == "") == (s.URL == "") {
		p.errorf(v, "mcp", "set exactly one of command (a local server) or url (a remote one)")
		return nil
	}
	if s.URL != "" && (len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != "" || len(s.Secrets) > 0) {
		p.errorf(v, "mcp", "args, env, cwd and secrets are for a local server (command); a url server takes headers")
		return nil
	}
	if s.Command != "" && len(s.Headers) > 0 {
		p.errorf(v, "mcp", "headers are for a url server; a command server takes env")
		return nil
	}
	if s.Command != "" && s.OAuth != nil {
		p.errorf(v, "mcp", "oauth is for a url server; a command server signs in through its env")
		return nil
	}
	if probs := s.SecretPlaceProblems(); len(probs) > 0 {
		for _, pr := range probs {
			n := at[pr.Field]
			if n == nil {
				n = v
			}
			p.errorf(n, pr.Field, "%s", pr.Message)
		}
		return nil
	}
	return s
}

// mcpOAuth reads mcp.oauth: client_id, client_secret (a ${secret:NAME}
// reference only) and client_metadata_url (https, with a path).
func (p *parse) mcpOAuth(v *yaml.Node, field string) *MCPOAuth {
	if v.Kind != yaml.MappingNode {
		p.errorf(v, field, "must be a mapping with client_id (and client_secret) or client_metadata_url, not %s", describe(v))
		return nil
	}
	o := &MCPOAuth{}
	for _, kv := range p.pairs(v, field) {
		f := field + "." + kv.key
		switch kv.key {
		case "client_id":
			o.ClientID, _ = p.str(kv.val, f)
		case "client_secret":
			o.ClientSecret, _ = p.str(kv.val, f)
			if o.ClientSecret != "" && !isSecretRef(o.ClientSecret) {
				p.errorf(kv.val, f, "must reference a stored secret (client_secret: '${secret:NAME}'), never the value itself")
				o.ClientSecret = ""
			}
		case "client_metadata_url":
			o.ClientMetadataURL, _ = p.str(kv.val, f)
			if u, err := url.Parse(o.ClientMetadataURL); err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" {
				p.errorf(kv.val, f, "must be an https:// address with a path (the client's metadata document), not %q", o.ClientMetadataURL)
				o.ClientMetadataURL = ""
			}
		default:
			p.warnf(kv.kNode, f, "unknown key is ignored (known: client_id, client_secret, client_metadata_url)")
		}
	}
	if o.ClientSecret != "" && o.ClientID == "" {
		p.errorf(v, field, "client_secret needs the client_id it belongs to")
	}
	return o
}

// isSecretRef reports whether v is exactly one ${secret:NAME} reference.
func isSecretRef(v string) bool {
	names := SecretNames(v)
	return len(names) == 1 && v == "${secret:"+names[0]+"}"
}

func describe(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return "an empty value"
	}
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "an empty value"
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int", "!!float":
			return "the number " + n.Value
		}
		return fmt.Sprintf("the text %q", n.Value)
	}
	return "an unexpected value"
}

// headings lists the Markdown headings of body, skipping fenced code.
func headings(body string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(t, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(t, "#"))
		if h != "" {
			out = append(out, h)
		}
	}
	return out
}
