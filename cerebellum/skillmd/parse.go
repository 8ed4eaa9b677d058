package skillmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/adrg/frontmatter"
	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Limits of the format.
const (
	MaxFileSize          = 1 << 20
	MaxNameLength        = 64
	MaxDescriptionLength = 1024
	MaxCompatibility     = 500
	MaxToolNameLength    = 64
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
	"permissions": true, "mcp": true,
}

// Parse reads a SKILL.md. It returns the manifest and nil, or nil and an
// *Error listing every error-level problem at once. Warnings ride on the
// manifest.
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
	p.src = strings.Split(string(text), "\n")

	var fm []byte
	format := frontmatter.NewFormat("---", "---", func(b []byte, _ any) error {
		fm = append([]byte(nil), b...)
		return nil
	})
	var sink struct{}
	body, err := frontmatter.MustParse(bytes.NewReader(text), &sink, format)
	if err != nil || !bytes.HasPrefix(bytes.TrimLeft(text, " \t\n"), []byte("---")) {
		return nil, &Error{File: opt.File, cause: ErrNoFrontmatter, Problems: []Problem{{File: opt.File, Line: 1,
			Message: "SKILL.md must start with a YAML frontmatter block: a line `---`, the fields, and a closing `---` line"}}}
	}
	if i := bytes.Index(text, fm); i >= 0 && len(fm) > 0 {
		p.lineOffset = bytes.Count(text[:i], []byte("\n"))
	} else {
		p.lineOffset = 1
	}

	var raw yaml.MapSlice
	if err := yaml.UnmarshalWithOptions(fm, &raw, yaml.UseOrderedMap()); err != nil {
		p.yamlError(err)
		return nil, p.result()
	}
	if file, err := parser.ParseBytes(fm, 0); err == nil {
		p.ast = file
	}
	m := &Manifest{Body: strings.TrimSpace(string(body))}
	m.Headings = headings(m.Body)
	p.manifest(m, raw, opt)
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	m.Warnings = p.warns
	return m, nil
}

type parse struct {
	file       string
	src        []string
	lineOffset int
	ast        *ast.File
	errs       []Problem
	warns      []Problem
}

func (p *parse) result() error {
	return &Error{File: p.file, Problems: p.errs}
}

// yamlError turns a YAML syntax error into a problem with its real line and column.
func (p *parse) yamlError(err error) {
	var ye yaml.Error
	prob := Problem{File: p.file, Message: "YAML: " + err.Error()}
	if errors.As(err, &ye) {
		prob.Message = "YAML: " + ye.GetMessage()
		if tok := ye.GetToken(); tok != nil && tok.Position != nil {
			prob.Line = tok.Position.Line + p.lineOffset
			prob.Column = tok.Position.Column
		}
	}
	if strings.Contains(prob.Message, "mapping value is not allowed") {
		prob.Message += " (a value containing \": \" must be quoted)"
	}
	prob.Snippet = p.snippet(prob.Line, prob.Column)
	p.errs = append(p.errs, prob)
}

// at finds the line and column of a YAML path like $.tools[0].name.
func (p *parse) at(path string) (int, int) {
	if p.ast == nil {
		return 0, 0
	}
	yp, err := yaml.PathString(path)
	if err != nil {
		return 0, 0
	}
	node, err := yp.FilterFile(p.ast)
	if err != nil || node == nil || node.GetToken() == nil || node.GetToken().Position == nil {
		return 0, 0
	}
	pos := node.GetToken().Position
	return pos.Line + p.lineOffset, pos.Column
}

func (p *parse) add(warning bool, path, field, format string, args ...any) {
	line, col := p.at(path)
	prob := Problem{File: p.file, Line: line, Column: col, Field: field, Message: fmt.Sprintf(format, args...), Warning: warning}
	if !warning {
		prob.Snippet = p.snippet(line, col)
		p.errs = append(p.errs, prob)
		return
	}
	p.warns = append(p.warns, prob)
}

func (p *parse) errorf(path, field, format string, args ...any) { p.add(false, path, field, format, args...) }
func (p *parse) warnf(path, field, format string, args ...any)  { p.add(true, path, field, format, args...) }

// snippet shows the line before, the line, and a caret under the column.
func (p *parse) snippet(line, col int) string {
	if line <= 0 || line > len(p.src) {
		return ""
	}
	var b strings.Builder
	for l := max(1, line-1); l <= min(len(p.src), line+1); l++ {
		mark := "  "
		if l == line {
			mark = "> "
		}
		fmt.Fprintf(&b, "%s%4d | %s\n", mark, l, p.src[l-1])
		if l == line && col > 0 {
			fmt.Fprintf(&b, "       | %s^\n", strings.Repeat(" ", col-1))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func keyPath(parent, key string) string {
	return parent + ".'" + strings.ReplaceAll(key, "'", `\'`) + "'"
}

func (p *parse) manifest(m *Manifest, raw yaml.MapSlice, opt Options) {
	seen := map[string]any{}
	for _, item := range raw {
		key := fmt.Sprint(item.Key)
		if !knownKeys[key] {
			p.warnf(keyPath("$", key), key, "unknown key is ignored")
			continue
		}
		seen[key] = item.Value
	}

	// name
	if v, ok := seen["name"]; !ok {
		p.errorf("$", "name", "required: add `name: your-capability` (lowercase letters, digits and -)")
	} else if s, ok := p.str(v, "$.name", "name"); ok {
		switch {
		case s == "":
			p.errorf("$.name", "name", "must not be empty")
		case !ValidName(s):
			p.errorf("$.name", "name", "%q is not a valid name: use 1-%d lowercase letters, digits and single hyphens, not starting or ending with -", s, MaxNameLength)
		default:
			m.Name = s
			if opt.Folder != "" && opt.Folder != s {
				p.warnf("$.name", "name", "%q differs from its folder name %q; the capability is registered as %q", s, opt.Folder, s)
			}
		}
	}
	// description
	if v, ok := seen["description"]; !ok {
		p.errorf("$", "description", "required: say what the capability does and when to use it")
	} else if s, ok := p.str(v, "$.description", "description"); ok {
		s = strings.TrimSpace(s)
		if s == "" {
			p.errorf("$.description", "description", "must not be empty")
		} else if len(s) > MaxDescriptionLength {
			p.warnf("$.description", "description", "is %d characters; keep it under %d (only the first 90 show in the index)", len(s), MaxDescriptionLength)
		}
		m.Description = s
	}
	m.Version = p.scalarField(seen, "version")
	m.License = p.scalarField(seen, "license")
	m.Compatibility = p.scalarField(seen, "compatibility")
	if len(m.Compatibility) > MaxCompatibility {
		p.warnf("$.compatibility", "compatibility", "is %d characters; keep it under %d", len(m.Compatibility), MaxCompatibility)
	}
	if v, ok := seen["metadata"]; ok && v != nil {
		m.Metadata = p.stringMap(v, "$.metadata", "metadata")
	}
	if v, ok := seen["allowed-tools"]; ok && v != nil {
		switch t := v.(type) {
		case string:
			m.AllowedTools = strings.Fields(t)
		default:
			m.AllowedTools = p.strList(v, keyPath("$", "allowed-tools"), "allowed-tools")
		}
	}
	m.Triggers = p.listField(seen, "triggers")
	m.Keywords = p.listField(seen, "keywords")
	m.Tags = p.listField(seen, "tags")
	if v, ok := seen["core"]; ok && v != nil {
		if b, ok := v.(bool); ok {
			m.Core = b
		} else {
			p.errorf("$.core", "core", "must be true or false, not %s", describe(v))
		}
	}
	m.Requires = p.listField(seen, "requires")
	for i, r := range m.Requires {
		if !ValidName(r) {
			p.errorf(fmt.Sprintf("$.requires[%d]", i), fmt.Sprintf("requires[%d]", i), "%q is not a capability name", r)
		} else if r == m.Name && m.Name != "" {
			p.errorf(fmt.Sprintf("$.requires[%d]", i), fmt.Sprintf("requires[%d]", i), "a capability cannot require itself")
		}
	}
	if v, ok := seen["tools"]; ok && v != nil {
		m.Tools = p.tools(v)
	}
	m.DangerPatterns = p.patterns(seen, "danger_patterns")
	m.ConfirmPatterns = p.patterns(seen, "confirm_patterns")
	if v, ok := seen["permissions"]; ok && v != nil {
		m.Permissions = p.permissions(v)
	}
	if v, ok := seen["mcp"]; ok && v != nil {
		m.MCP = p.mcp(v)
	}
	if m.MCP != nil && len(m.Tools) > 0 {
		p.warnf("$.tools", "tools", "an MCP capability gets its tools from the server; the declared list is used only until the server answers")
	}
	if m.Body == "" && len(m.Tools) == 0 && m.MCP == nil {
		p.warnf("$", "body", "a guide with no instructions: add Markdown after the frontmatter")
	}
}

// str accepts a string; other scalars are an error naming the type.
func (p *parse) str(v any, path, field string) (string, bool) {
	s, ok := v.(string)
	if !ok {
		p.errorf(path, field, "must be a string, not %s", describe(v))
		return "", false
	}
	return s, true
}

// scalarField accepts any scalar (version: 1.0 is common) as text.
func (p *parse) scalarField(seen map[string]any, key string) string {
	v, ok := seen[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := scalarText(v)
	if !ok {
		p.errorf(keyPath("$", key), key, "must be a single value, not %s", describe(v))
	}
	return s
}

func scalarText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case int, int64, uint64, uint, int32:
		return fmt.Sprint(t), true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	}
	return "", false
}

func (p *parse) listField(seen map[string]any, key string) []string {
	v, ok := seen[key]
	if !ok || v == nil {
		return nil
	}
	return p.strList(v, keyPath("$", key), key)
}

func (p *parse) strList(v any, path, field string) []string {
	list, ok := v.([]any)
	if !ok {
		if s, isStr := v.(string); isStr {
			p.errorf(path, field, "must be a list of strings; write it as [%q] or one `- item` per line", s)
		} else {
			p.errorf(path, field, "must be a list of strings, not %s", describe(v))
		}
		return nil
	}
	out := make([]string, 0, len(list))
	for i, e := range list {
		s, ok := scalarText(e)
		if !ok {
			p.errorf(fmt.Sprintf("%s[%d]", path, i), fmt.Sprintf("%s[%d]", field, i), "must be a string, not %s", describe(e))
			continue
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (p *parse) stringMap(v any, path, field string) map[string]string {
	ms, ok := v.(yaml.MapSlice)
	if !ok {
		p.errorf(path, field, "must be a mapping of keys to strings, not %s", describe(v))
		return nil
	}
	out := make(map[string]string, len(ms))
	for _, it := range ms {
		k := fmt.Sprint(it.Key)
		s, ok := scalarText(it.Value)
		if !ok {
			p.errorf(keyPath(path, k), field+"."+k, "must be a string, not %s", describe(it.Value))
			continue
		}
		out[k] = s
	}
	return out
}

var toolKeys = map[string]bool{"name": true, "description": true, "parameters": true, "annotations": true,
	"timeout": true, "outputSchema": true, "inputSchema": true}

func (p *parse) tools(v any) []Tool {
	list, ok := v.([]any)
	if !ok {
		p.errorf("$.tools", "tools", "must be a list of tools (each with name, description and parameters), not %s", describe(v))
		return nil
	}
	var out []Tool
	names := map[string]int{}
	for i, e := range list {
		path := fmt.Sprintf("$.tools[%d]", i)
		field := fmt.Sprintf("tools[%d]", i)
		ms, ok := e.(yaml.MapSlice)
		if !ok {
			p.errorf(path, field, "must be a mapping with name, description and parameters, not %s", describe(e))
			continue
		}
		t := Tool{}
		fields := map[string]any{}
		for _, it := range ms {
			k := fmt.Sprint(it.Key)
			if !toolKeys[k] {
				p.warnf(keyPath(path, k), field+"."+k, "unknown key is ignored")
				continue
			}
			fields[k] = it.Value
		}
		okTool := true
		if nv, ok := fields["name"]; !ok {
			p.errorf(path, field+".name", "required")
			okTool = false
		} else if s, ok := p.str(nv, path+".name", field+".name"); ok {
			if !ValidToolName(s) {
				p.errorf(path+".name", field+".name", "%q must match ^[a-zA-Z0-9_-]{1,64}$", s)
				okTool = false
			} else if j, dup := names[s]; dup {
				p.errorf(path+".name", field+".name", "tool %q is declared twice (also tools[%d])", s, j)
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
			p.errorf(path, field+".description", "required: tell the model what the tool does")
		} else if s, ok := p.str(dv, path+".description", field+".description"); ok {
			t.Description = strings.TrimSpace(s)
			if t.Description == "" {
				p.errorf(path+".description", field+".description", "must not be empty")
			}
		}
		params, hasParams := fields["parameters"]
		if !hasParams {
			params, hasParams = fields["inputSchema"]
		}
		if !hasParams || params == nil {
			t.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
		} else if raw, ok := p.objectSchema(params, path+".parameters", field+".parameters"); ok {
			t.Parameters = raw
		}
		if ov, ok := fields["outputSchema"]; ok && ov != nil {
			if raw, ok := p.schema(ov, path+".outputSchema", field+".outputSchema"); ok {
				t.OutputSchema = raw
			}
		}
		if av, ok := fields["annotations"]; ok && av != nil {
			t.Annotations = p.annotations(av, path+".annotations", field+".annotations")
		}
		if tv, ok := fields["timeout"]; ok && tv != nil {
			t.Timeout = p.duration(tv, path+".timeout", field+".timeout")
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
func (p *parse) objectSchema(v any, path, field string) (json.RawMessage, bool) {
	ms, ok := v.(yaml.MapSlice)
	if !ok {
		p.errorf(path, field, "must be a JSON Schema object (type: object, properties: ...), not %s", describe(v))
		return nil, false
	}
	doc := toJSONValue(ms).(map[string]any)
	good := true
	if t, ok := doc["type"]; !ok {
		p.errorf(path, field, "must say `type: object` (a full JSON Schema for the argument object)")
		good = false
	} else if t != "object" {
		p.errorf(path+".type", field+".type", "must be \"object\", not %s", describe(t))
		good = false
	}
	props := map[string]any{}
	if pv, ok := doc["properties"]; ok && pv != nil {
		pm, ok := pv.(map[string]any)
		if !ok {
			p.errorf(path+".properties", field+".properties", "must be a mapping of argument name to schema, not %s", describe(pv))
			good = false
		} else {
			props = pm
			for _, name := range sortedKeys(pm) {
				if !p.checkPropertySchema(pm[name], keyPath(path+".properties", name), field+".properties."+name) {
					good = false
				}
			}
		}
	}
	if rv, ok := doc["required"]; ok && rv != nil {
		rl, ok := rv.([]any)
		if !ok {
			p.errorf(path+".required", field+".required", "must be a list of argument names, not %s", describe(rv))
			good = false
		} else {
			for i, r := range rl {
				s, ok := r.(string)
				if !ok {
					p.errorf(fmt.Sprintf("%s.required[%d]", path, i), fmt.Sprintf("%s.required[%d]", field, i), "must be a string")
					good = false
					continue
				}
				if _, ok := props[s]; !ok {
					p.errorf(fmt.Sprintf("%s.required[%d]", path, i), fmt.Sprintf("%s.required[%d]", field, i), "%q is required but not listed in properties", s)
					good = false
				}
			}
		}
	}
	if !good {
		return nil, false
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		p.errorf(path, field, "cannot be written as JSON: %v", err)
		return nil, false
	}
	return raw, true
}

func (p *parse) checkPropertySchema(v any, path, field string) bool {
	switch s := v.(type) {
	case bool:
		return true
	case map[string]any:
		if t, ok := s["type"]; ok {
			switch tt := t.(type) {
			case string:
				if !jsonTypes[tt] {
					p.errorf(path+".type", field+".type", "%q is not a JSON Schema type (use string, number, integer, boolean, array, object or null)", tt)
					return false
				}
			case []any:
				for _, x := range tt {
					if xs, ok := x.(string); !ok || !jsonTypes[xs] {
						p.errorf(path+".type", field+".type", "%v is not a JSON Schema type", x)
						return false
					}
				}
			default:
				p.errorf(path+".type", field+".type", "must be a type name, not %s", describe(t))
				return false
			}
		}
		if e, ok := s["enum"]; ok {
			if _, ok := e.([]any); !ok {
				p.errorf(path+".enum", field+".enum", "must be a list of allowed values")
				return false
			}
		}
		return true
	default:
		p.errorf(path, field, "must be a schema mapping (type, description, ...), not %s", describe(v))
		return false
	}
}

func (p *parse) schema(v any, path, field string) (json.RawMessage, bool) {
	switch v.(type) {
	case yaml.MapSlice, bool:
	default:
		p.errorf(path, field, "must be a JSON Schema mapping, not %s", describe(v))
		return nil, false
	}
	raw, err := json.Marshal(toJSONValue(v))
	if err != nil {
		p.errorf(path, field, "cannot be written as JSON: %v", err)
		return nil, false
	}
	return raw, true
}

func (p *parse) annotations(v any, path, field string) Annotations {
	var a Annotations
	ms, ok := v.(yaml.MapSlice)
	if !ok {
		p.errorf(path, field, "must be a mapping (readOnly, destructive, idempotent), not %s", describe(v))
		return a
	}
	for _, it := range ms {
		k := fmt.Sprint(it.Key)
		b, isBool := it.Value.(bool)
		var dst *bool
		switch k {
		case "readOnly", "readOnlyHint":
			dst = &a.ReadOnly
		case "destructive", "destructiveHint":
			dst = &a.Destructive
		case "idempotent", "idempotentHint":
			dst = &a.Idempotent
		default:
			p.warnf(keyPath(path, k), field+"."+k, "unknown annotation is ignored (known: readOnly, destructive, idempotent)")
			continue
		}
		if !isBool {
			p.errorf(keyPath(path, k), field+"."+k, "must be true or false, not %s", describe(it.Value))
			continue
		}
		*dst = b
	}
	return a
}

func (p *parse) duration(v any, path, field string) time.Duration {
	switch t := v.(type) {
	case string:
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			p.errorf(path, field, "%q is not a duration; write e.g. 90s or 5m", t)
			return 0
		}
		return d
	case uint64, int64, int, float64:
		f, _ := strconv.ParseFloat(fmt.Sprint(t), 64)
		if f <= 0 || math.IsInf(f, 0) || f > 24*3600 {
			p.errorf(path, field, "must be a positive number of seconds or a duration like 90s")
			return 0
		}
		return time.Duration(f * float64(time.Second))
	}
	p.errorf(path, field, "must be a duration like 90s, not %s", describe(v))
	return 0
}

func (p *parse) patterns(seen map[string]any, key string) []Pattern {
	v, ok := seen[key]
	if !ok || v == nil {
		return nil
	}
	path := keyPath("$", key)
	list, ok := v.([]any)
	if !ok {
		p.errorf(path, key, "must be a list of regular expressions (a string or {pattern, reason} each), not %s", describe(v))
		return nil
	}
	var out []Pattern
	for i, e := range list {
		ep := fmt.Sprintf("%s[%d]", path, i)
		ef := fmt.Sprintf("%s[%d]", key, i)
		var pat Pattern
		switch t := e.(type) {
		case string:
			pat.Pattern = t
		case yaml.MapSlice:
			for _, it := range t {
				k := fmt.Sprint(it.Key)
				s, ok := scalarText(it.Value)
				switch k {
				case "pattern":
					if !ok {
						p.errorf(keyPath(ep, k), ef+".pattern", "must be a string")
						continue
					}
					pat.Pattern = s
				case "reason":
					pat.Reason = s
				case "level":
					// Accepted from Wolffish-style files; the list it sits in decides the level.
				default:
					p.warnf(keyPath(ep, k), ef+"."+k, "unknown key is ignored")
				}
			}
		default:
			p.errorf(ep, ef, "must be a string or {pattern, reason}, not %s", describe(e))
			continue
		}
		if pat.Pattern == "" {
			p.errorf(ep, ef, "pattern is missing or empty")
			continue
		}
		re, err := regexp.Compile("(?i)" + pat.Pattern)
		if err != nil {
			p.errorf(ep, ef, "%q is not a valid regular expression: %v", pat.Pattern, err)
			continue
		}
		if re.MatchString("") {
			p.errorf(ep, ef, "%q matches the empty string, so it would match every call; make it specific", pat.Pattern)
			continue
		}
		pat.Re = re
		out = append(out, pat)
	}
	return out
}

func (p *parse) permissions(v any) Permissions {
	out := Permissions{}
	add := func(name, path, field string, scope []string) {
		known := false
		for _, k := range KnownPermissions {
			if k == name {
				known = true
			}
		}
		if !known {
			p.errorf(path, field, "unknown permission %q (known: %s)", name, strings.Join(KnownPermissions, ", "))
			return
		}
		out[name] = scope
	}
	switch t := v.(type) {
	case []any:
		for i, e := range t {
			s, ok := e.(string)
			if !ok {
				p.errorf(fmt.Sprintf("$.permissions[%d]", i), fmt.Sprintf("permissions[%d]", i), "must be a permission name")
				continue
			}
			add(s, fmt.Sprintf("$.permissions[%d]", i), fmt.Sprintf("permissions[%d]", i), nil)
		}
	case yaml.MapSlice:
		for _, it := range t {
			k := fmt.Sprint(it.Key)
			path := keyPath("$.permissions", k)
			switch val := it.Value.(type) {
			case bool:
				if val {
					add(k, path, "permissions."+k, nil)
				}
			case string:
				add(k, path, "permissions."+k, []string{val})
			case []any:
				add(k, path, "permissions."+k, p.strList(val, path, "permissions."+k))
			case nil:
				add(k, path, "permissions."+k, nil)
			default:
				p.errorf(path, "permissions."+k, "must be true, or a list of what it covers, not %s", describe(it.Value))
			}
		}
	default:
		p.errorf("$.permissions", "permissions", "must be a list (e.g. [exec, network]) or a mapping, not %s", describe(v))
	}
	return out
}

func (p *parse) mcp(v any) *MCPServer {
	ms, ok := v.(yaml.MapSlice)
	if !ok {
		p.errorf("$.mcp", "mcp", "must be a mapping with command (and args) or url, not %s", describe(v))
		return nil
	}
	s := &MCPServer{}
	for _, it := range ms {
		k := fmt.Sprint(it.Key)
		path := keyPath("$.mcp", k)
		switch k {
		case "command":
			s.Command, _ = p.str(it.Value, path, "mcp.command")
		case "url":
			s.URL, _ = p.str(it.Value, path, "mcp.url")
		case "args":
			s.Args = p.strList(it.Value, path, "mcp.args")
		case "env":
			s.Env = p.stringMap(it.Value, path, "mcp.env")
		case "secrets":
			s.Secrets = p.stringMap(it.Value, path, "mcp.secrets")
		default:
			p.warnf(path, "mcp."+k, "unknown key is ignored")
		}
	}
	if (s.Command == "") == (s.URL == "") {
		p.errorf("$.mcp", "mcp", "set exactly one of command (a local server) or url (a remote one)")
		return nil
	}
	return s
}

// toJSONValue converts decoded YAML (ordered maps, uint64s) to JSON-ready values.
func toJSONValue(v any) any {
	switch t := v.(type) {
	case yaml.MapSlice:
		m := make(map[string]any, len(t))
		for _, it := range t {
			m[fmt.Sprint(it.Key)] = toJSONValue(it.Value)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = toJSONValue(x)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = toJSONValue(x)
		}
		return out
	default:
		return t
	}
}

func describe(v any) string {
	switch t := v.(type) {
	case nil:
		return "an empty value"
	case string:
		return fmt.Sprintf("the text %q", t)
	case bool:
		return fmt.Sprintf("the boolean %v", t)
	case []any:
		return "a list"
	case yaml.MapSlice, map[string]any:
		return "a mapping"
	case uint64, int64, int, float64:
		return fmt.Sprintf("the number %v", t)
	}
	return fmt.Sprintf("a %T", v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
