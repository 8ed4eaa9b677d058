package eval

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

// Tool is one tool of a data set, made into a capability.
type Tool struct {
	Name        string // as the data set spells it, e.g. "ResearchHelper"
	Capability  string // valid capability name, e.g. "research-helper"
	Description string
}

// Query is one labelled request.
type Query struct {
	Text       string
	Tool       string // the right tool, as the data set spells it
	Capability string // the right tool's capability name
}

// Dataset is a tool-retrieval data set in the MetaTool format.
type Dataset struct {
	Tools   []Tool  // sorted by Name
	Queries []Query // in file order

	toCap  map[string]string
	toTool map[string]string
}

// LoadMetaTool reads a data set from a tools file (a JSON object of tool
// name → description) and a queries file (CSV with the header Query,Tool).
func LoadMetaTool(toolsJSON, queriesCSV string) (*Dataset, error) {
	tf, err := os.Open(toolsJSON)
	if err != nil {
		return nil, fmt.Errorf("open tools file: %w", err)
	}
	defer tf.Close()
	qf, err := os.Open(queriesCSV)
	if err != nil {
		return nil, fmt.Errorf("open queries file: %w", err)
	}
	defer qf.Close()
	ds, err := ReadMetaTool(tf, qf)
	if err != nil {
		return nil, fmt.Errorf("load %s and %s: %w", toolsJSON, queriesCSV, err)
	}
	return ds, nil
}

// ReadMetaTool is LoadMetaTool over readers.
func ReadMetaTool(tools, queries io.Reader) (*Dataset, error) {
	var raw map[string]string
	if err := json.NewDecoder(tools).Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: tools: want a JSON object of tool name to description string: %w", ErrFormat, err)
	}
	ds := &Dataset{toCap: make(map[string]string, len(raw)), toTool: make(map[string]string, len(raw))}
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	slices.Sort(names)
	taken := make(map[string]bool, len(names))
	for _, name := range names {
		c := uniqueName(CapabilityName(name), taken)
		ds.Tools = append(ds.Tools, Tool{Name: name, Capability: c, Description: raw[name]})
		ds.toCap[name] = c
		ds.toTool[c] = name
	}

	r := csv.NewReader(queries)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: queries: read header: %w", ErrFormat, err)
	}
	qi, ti := -1, -1
	for i, h := range header {
		switch strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))) {
		case "query":
			qi = i
		case "tool":
			ti = i
		}
	}
	if qi < 0 || ti < 0 {
		return nil, fmt.Errorf("%w: queries: header %q lacks Query and Tool columns", ErrFormat, strings.Join(header, ","))
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: queries: %w", ErrFormat, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) <= max(qi, ti) {
			return nil, fmt.Errorf("%w: queries line %d: %d fields, want Query and Tool", ErrFormat, line, len(rec))
		}
		tool := strings.TrimSpace(rec[ti])
		c, ok := ds.toCap[tool]
		if !ok {
			return nil, fmt.Errorf("%w: queries line %d: %q is not a key of the tools file", ErrUnknownTool, line, tool)
		}
		ds.Queries = append(ds.Queries, Query{Text: rec[qi], Tool: tool, Capability: c})
	}
	return ds, nil
}

// CapabilityOf returns the capability name a data-set tool was mapped to.
func (ds *Dataset) CapabilityOf(tool string) (string, bool) {
	c, ok := ds.toCap[tool]
	return c, ok
}

// ToolOf maps a capability name back to the data set's tool name.
func (ds *Dataset) ToolOf(capability string) (string, bool) {
	t, ok := ds.toTool[capability]
	return t, ok
}

// Docs returns the tools as search documents: one capability per tool,
// with its name and description and nothing else, so every ranker sees the
// same text.
func (ds *Dataset) Docs() []search.Doc {
	docs := make([]search.Doc, len(ds.Tools))
	for i, t := range ds.Tools {
		docs[i] = search.Doc{ID: t.Capability, Name: t.Capability, Description: t.Description}
	}
	return docs
}

const maxNameLen = 64

// CapabilityName maps any tool name to a valid capability name: lower-case
// ASCII letters and digits in words joined by single hyphens, at most 64
// characters. camelCase becomes kebab-case ("ResearchHelper" →
// "research-helper", "SEOTool" → "seo-tool"); every other character
// separates words. A name with nothing usable becomes "tool".
func CapabilityName(name string) string {
	rs := []rune(name)
	var b strings.Builder
	sep := false
	for i, r := range rs {
		lower := r >= 'a' && r <= 'z'
		upper := r >= 'A' && r <= 'Z'
		digit := r >= '0' && r <= '9'
		if !lower && !upper && !digit {
			sep = b.Len() > 0
			continue
		}
		if upper && i > 0 && b.Len() > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
			if (prev >= 'a' && prev <= 'z') || (prev >= 'A' && prev <= 'Z' && nextLower) {
				sep = true
			}
		}
		if sep {
			b.WriteByte('-')
			sep = false
		}
		if upper {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	s := b.String()
	if len(s) > maxNameLen {
		s = strings.TrimRight(s[:maxNameLen], "-")
	}
	if s == "" {
		return "tool"
	}
	return s
}

// uniqueName returns base, or base-2, base-3… if taken, and marks it taken.
func uniqueName(base string, taken map[string]bool) string {
	name := base
	for i := 2; taken[name]; i++ {
		suffix := "-" + strconv.Itoa(i)
		b := base
		if len(b)+len(suffix) > maxNameLen {
			b = strings.TrimRight(b[:maxNameLen-len(suffix)], "-")
		}
		name = b + suffix
	}
	taken[name] = true
	return name
}
