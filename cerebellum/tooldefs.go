package cerebellum

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// modelTools is one capability's tools as a request carries them, each
// with its estimated size, made once per snapshot.
type modelTools struct {
	defs   []ToolDef
	tokens []int // tokens[i] is defs[i]'s schema in a request
	total  int
}

// modelTools renders capability name's tools for the model (see toolDef)
// and counts them, once per snapshot.
func (s *Snapshot) modelTools(name string) *modelTools {
	s.tokenMu.Lock()
	defer s.tokenMu.Unlock()
	if mt, ok := s.rendered[name]; ok {
		return mt
	}
	mt := &modelTools{}
	if c, ok := s.byName[name]; ok {
		tools := c.Tools()
		mt.defs = make([]ToolDef, len(tools))
		mt.tokens = make([]int, len(tools))
		for i := range tools {
			d := toolDef(c, &tools[i])
			mt.defs[i] = d
			mt.tokens[i] = schemaTokens(d)
			mt.total += mt.tokens[i]
		}
	}
	if s.rendered == nil {
		s.rendered = map[string]*modelTools{}
	}
	s.rendered[name] = mt
	return mt
}

// ToolDefs returns capability name's tools as a request carries them.
func (s *Snapshot) ToolDefs(name string) []ToolDef { return slices.Clone(s.modelTools(name).defs) }

// toolDef is a tool as the model sees it. Its description and the
// descriptions and titles in its parameters are the capability's words:
// one line each, capped and escaped (PromptLine), and an MCP server's
// marked as coming from that server. Tools that ship with Wrasse are its
// own words and pass as written (a test holds them to one line).
func toolDef(c *Capability, t *skillmd.Tool) ToolDef {
	d := ToolDef{Capability: c.Name, Name: t.Name, Description: t.Description, Parameters: t.Parameters, Annotations: t.Annotations}
	if c.Source == SourceBuiltin {
		return d
	}
	d.Name = PromptLine(t.Name, NameLimit) // validated already; never trusted
	if c.Kind == KindMCP {
		d.Description = FromServer(c.Name, t.Description, ToolDescriptionLimit)
	} else {
		d.Description = PromptLine(t.Description, ToolDescriptionLimit)
	}
	d.Parameters = promptSchema(t.Parameters)
	return d
}

// schemaTokens estimates the tokens one tool adds to a request: its name,
// description and parameters in the provider's wrapper.
func schemaTokens(d ToolDef) int {
	var b strings.Builder
	b.WriteString(`{"type":"function","function":{"name":"`)
	b.WriteString(d.Name)
	b.WriteString(`","description":`)
	desc, _ := json.Marshal(d.Description)
	b.Write(desc)
	b.WriteString(`,"parameters":`)
	b.Write(d.Parameters)
	b.WriteString("}}")
	return estimateJSONTokens(b.String())
}

// schemaData are the keywords of a JSON Schema whose values are data, not
// schemas: their "description" keys are the data's own.
var schemaData = map[string]bool{"const": true, "enum": true, "default": true, "examples": true, "example": true}

// promptSchema renders the string "description" and "title" values of a
// tool's parameter schema with PromptLine, so a server cannot write
// sections or markers through them either. A schema that needs no change
// keeps its bytes; one that does not parse is returned as is (the engine
// replaced those that do not compile already).
func promptSchema(raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, []byte(`"description"`)) && !bytes.Contains(raw, []byte(`"title"`)) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	if !escapeSchema(v) {
		return raw
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return raw
	}
	return json.RawMessage(bytes.TrimRight(b.Bytes(), "\n"))
}

// escapeSchema escapes v's annotations in place and reports whether any
// changed.
func escapeSchema(v any) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if schemaData[k] {
				continue
			}
			if s, ok := val.(string); ok && (k == "description" || k == "title") {
				if e := PromptLine(s, ToolDescriptionLimit); e != s {
					x[k] = e
					changed = true
				}
				continue
			}
			if escapeSchema(val) {
				changed = true
			}
		}
	case []any:
		for _, e := range x {
			if escapeSchema(e) {
				changed = true
			}
		}
	}
	return changed
}

// toolText renders a tool's description for a tool result (a search
// result, skill_inspect) within limit characters of its own: marked as the
// server's for an MCP capability.
func toolText(c *Capability, desc string, limit int) string {
	if c.Kind == KindMCP {
		return FromServer(c.Name, desc, limit+len("From MCP server : ")+len(c.Name))
	}
	return PromptLine(desc, limit)
}
