// Package data is the plugin of the built-in data capability: data_query
// filters, projects, groups, aggregates, sorts and limits rows of JSON,
// JSON Lines or CSV data, from a file or given inline.
//
// The source is interpreted by yaegi at run time: no goroutines, no
// package-level mutable state, stdlib and the SDK only. Parsing is left to
// encoding/json and encoding/csv; only the row loop is interpreted.
package data

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

const (
	maxInput     = 20 << 20 // bytes of data read
	maxRows      = 200000
	defaultLimit = 100
	maxLimit     = 10000
	maxOutput    = 64 << 10
)

type dataPlugin struct {
	env *sdk.Env
}

// Init registers data_query.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	d := &dataPlugin{env: env}
	p := sdk.NewPlugin()
	p.Handle("data_query", d.query)
	return p, nil
}

// table is loaded data: rows plus the column order when the source has one.
type table struct {
	rows    []map[string]any
	columns []string
}

// query is a decoded data_query call.
type query struct {
	Path      string   `json:"path"`
	Data      string   `json:"data"`
	Format    string   `json:"format"`
	Select    []string `json:"select"`
	Where     string   `json:"where"`
	GroupBy   []string `json:"group_by"`
	Aggregate []string `json:"aggregate"`
	SortBy    []string `json:"sort_by"`
	Limit     int      `json:"limit"`
	Output    string   `json:"output"`
}

func (d *dataPlugin) query(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	var q query
	// group_by and sort_by may be one string or a list.
	args := map[string]any{}
	for k, v := range req.Args {
		if s, ok := v.(string); ok && (k == "group_by" || k == "sort_by" || k == "select" || k == "aggregate") {
			var parts []any
			for _, p := range splitList(s) {
				parts = append(parts, p)
			}
			v = parts
		}
		args[k] = v
	}
	raw, _ := json.Marshal(args)
	if err := json.Unmarshal(raw, &q); err != nil {
		return nil, sdk.Errorf("arguments are malformed: %v", err)
	}
	src, name, err := d.source(q)
	if err != nil {
		return nil, err
	}
	format, err := pickFormat(q.Format, name, src)
	if err != nil {
		return nil, err
	}
	t, err := load(src, format)
	if err != nil {
		return nil, sdk.Errorf("cannot read %s as %s: %v", name, format, err)
	}
	total := len(t.rows)

	rows := t.rows
	if strings.TrimSpace(q.Where) != "" {
		cond, err := parseWhere(q.Where)
		if err != nil {
			return nil, sdk.Errorf("where: %v. Example: age > 30 and (city == \"Bern\" or tags contains \"vip\")", err)
		}
		var kept []map[string]any
		for i, r := range rows {
			if i%4096 == 0 && ctx.Err() != nil {
				return nil, sdk.Errorf("the query was cancelled")
			}
			if evalNode(cond, r) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	matched := len(rows)
	columns := t.columns
	if len(q.GroupBy) > 0 || len(q.Aggregate) > 0 {
		aggs, err := parseAggs(q.Aggregate)
		if err != nil {
			return nil, err
		}
		rows, columns = group(rows, q.GroupBy, aggs)
	}
	if len(q.SortBy) > 0 {
		keys, err := parseSort(q.SortBy)
		if err != nil {
			return nil, err
		}
		sortRows(rows, keys)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	if limit > maxLimit {
		limit = maxLimit
	}
	shown := rows
	if len(shown) > limit {
		shown = shown[:limit]
	}
	if len(q.Select) > 0 {
		shown = project(shown, q.Select)
		columns = q.Select
	}
	if columns == nil {
		columns = keysOf(shown)
	}
	var body string
	switch strings.ToLower(q.Output) {
	case "", "json":
		body = jsonRows(shown)
	case "csv":
		body, err = csvRows(shown, columns)
		if err != nil {
			return nil, sdk.Errorf("cannot write CSV: %v", err)
		}
	default:
		return nil, sdk.Errorf("output %q is not supported; use json or csv", q.Output)
	}
	head := fmt.Sprintf("%d rows read", total)
	if q.Where != "" {
		head += fmt.Sprintf(", %d matched", matched)
	}
	if len(q.GroupBy) > 0 || len(q.Aggregate) > 0 {
		head += fmt.Sprintf(", %d groups", len(rows))
	}
	head += fmt.Sprintf(", showing %d", len(shown))
	if len(shown) < len(rows) {
		head += fmt.Sprintf(" (limit %d; raise limit or narrow the query for more)", limit)
	}
	out := head + "\n" + body
	if len(out) > maxOutput {
		cut := out[:maxOutput]
		if i := strings.LastIndexByte(cut, '\n'); i > 0 {
			cut = cut[:i]
		}
		out = cut + fmt.Sprintf("\n[... output cut at %d bytes; select fewer fields or lower the limit ...]", maxOutput)
	}
	return sdk.Text(out), nil
}

// splitList splits "a, b" into fields, keeping aggregate calls such as
// "sum(a)" whole.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// source returns the raw data and a name for messages.
func (d *dataPlugin) source(q query) ([]byte, string, error) {
	if q.Path != "" && q.Data != "" {
		return nil, "", sdk.Errorf("pass either path or data, not both")
	}
	if q.Data != "" {
		if len(q.Data) > maxInput {
			return nil, "", sdk.Errorf("data is larger than %d bytes; write it to a file and pass path", maxInput)
		}
		return []byte(q.Data), "the inline data", nil
	}
	if q.Path == "" {
		return nil, "", sdk.Errorf("pass path (a .json, .jsonl or .csv file) or data (the text itself)")
	}
	// Opened through the SDK, which checks what it actually opens.
	f, _, err := d.env.OpenArg(q.Path)
	if err != nil {
		var te *sdk.ToolError
		switch {
		case errors.As(err, &te):
			return nil, "", err
		case errors.Is(err, fs.ErrNotExist):
			return nil, "", sdk.Errorf("%s does not exist; check the path with fs_find", q.Path)
		}
		return nil, "", sdk.Errorf("cannot read %s: %v", q.Path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, "", sdk.Errorf("cannot read %s: %v", q.Path, err)
	}
	if info.IsDir() {
		return nil, "", sdk.Errorf("%s is a folder; pass a data file", q.Path)
	}
	if info.Size() > maxInput {
		return nil, "", sdk.Errorf("%s is %d bytes; the limit is %d", q.Path, info.Size(), maxInput)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxInput+1))
	if err != nil {
		return nil, "", sdk.Errorf("cannot read %s: %v", q.Path, err)
	}
	if len(b) > maxInput {
		return nil, "", sdk.Errorf("%s is more than %d bytes; the limit is %d", q.Path, maxInput, maxInput)
	}
	return b, q.Path, nil
}

// pickFormat decides json, jsonl, csv or tsv from the argument, the file
// extension, or the content.
func pickFormat(asked, name string, src []byte) (string, error) {
	switch strings.ToLower(asked) {
	case "json", "jsonl", "csv", "tsv":
		return strings.ToLower(asked), nil
	case "ndjson":
		return "jsonl", nil
	case "":
	default:
		return "", sdk.Errorf("format %q is not supported; use json, jsonl, csv or tsv", asked)
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return "json", nil
	case ".jsonl", ".ndjson":
		return "jsonl", nil
	case ".csv":
		return "csv", nil
	case ".tsv", ".tab":
		return "tsv", nil
	}
	t := bytes.TrimSpace(src)
	switch {
	case bytes.HasPrefix(t, []byte("[")):
		return "json", nil
	case bytes.HasPrefix(t, []byte("{")):
		if i := bytes.IndexByte(t, '\n'); i > 0 && json.Valid(bytes.TrimSpace(t[:i])) {
			return "jsonl", nil
		}
		return "json", nil
	}
	first := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	if bytes.Count(first, []byte("\t")) > bytes.Count(first, []byte(",")) {
		return "tsv", nil
	}
	return "csv", nil
}

// load parses src into rows.
func load(src []byte, format string) (table, error) {
	switch format {
	case "json":
		var v any
		dec := json.NewDecoder(bytes.NewReader(src))
		if err := dec.Decode(&v); err != nil {
			return table{}, err
		}
		list, ok := v.([]any)
		if !ok {
			obj, isObj := v.(map[string]any)
			if !isObj {
				return table{}, fmt.Errorf("expected an array of objects")
			}
			// {"items": [...]}: use the (first, by name) array of objects.
			for _, k := range keysOfMap(obj) {
				if l, isList := obj[k].([]any); isList {
					list = l
					break
				}
			}
			if list == nil {
				list = []any{obj}
			}
		}
		return rowsFrom(list)
	case "jsonl":
		var list []any
		dec := json.NewDecoder(bytes.NewReader(src))
		for {
			var v any
			if err := dec.Decode(&v); err != nil {
				if err == io.EOF {
					break
				}
				return table{}, fmt.Errorf("line %d: %v", len(list)+1, err)
			}
			list = append(list, v)
			if len(list) > maxRows {
				return table{}, fmt.Errorf("more than %d rows", maxRows)
			}
		}
		return rowsFrom(list)
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))))
	if format == "tsv" {
		r.Comma = '\t'
	}
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	recs, err := r.ReadAll()
	if err != nil {
		return table{}, err
	}
	if len(recs) == 0 {
		return table{}, nil
	}
	if len(recs)-1 > maxRows {
		return table{}, fmt.Errorf("more than %d rows", maxRows)
	}
	header := recs[0]
	seen := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if h == "" {
			h = "column" + strconv.Itoa(i+1)
		}
		if n := seen[h]; n > 0 {
			h = h + "_" + strconv.Itoa(n+1)
		}
		seen[h]++
		header[i] = h
	}
	rows := make([]map[string]any, 0, len(recs)-1)
	for _, rec := range recs[1:] {
		row := make(map[string]any, len(header))
		for i, h := range header {
			if i < len(rec) {
				row[h] = cell(rec[i])
			} else {
				row[h] = nil
			}
		}
		rows = append(rows, row)
	}
	return table{rows: rows, columns: header}, nil
}

// cell turns CSV text into a number when it is one; empty cells are null.
func cell(s string) any {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) &&
		!(len(t) > 1 && t[0] == '0' && t[1] != '.') {
		// Leading zeros (zip codes, ids) stay text.
		return f
	}
	return s
}

func rowsFrom(list []any) (table, error) {
	if len(list) > maxRows {
		return table{}, fmt.Errorf("more than %d rows", maxRows)
	}
	rows := make([]map[string]any, 0, len(list))
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			if i > 0 || len(list) == 0 {
				return table{}, fmt.Errorf("item %d is not an object", i+1)
			}
			// A list of plain values: one column named value.
			rows = make([]map[string]any, 0, len(list))
			for _, x := range list {
				rows = append(rows, map[string]any{"value": x})
			}
			return table{rows: rows, columns: []string{"value"}}, nil
		}
		rows = append(rows, m)
	}
	return table{rows: rows}, nil
}

func keysOfMap(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keysOf lists the columns of rows in sorted order.
func keysOf(rows []map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		for k := range r {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func project(rows []map[string]any, fields []string) []map[string]any {
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		m := make(map[string]any, len(fields))
		for _, f := range fields {
			m[f] = lookup(r, f)
		}
		out[i] = m
	}
	return out
}

// agg is one aggregate: count, or fn(field).
type agg struct {
	fn, field, name string
}

func parseAggs(specs []string) ([]agg, error) {
	var out []agg
	for _, s := range specs {
		s = strings.TrimSpace(s)
		low := strings.ToLower(s)
		if low == "count" || low == "count()" || low == "count(*)" {
			out = append(out, agg{fn: "count", name: "count"})
			continue
		}
		open := strings.IndexByte(s, '(')
		if open < 0 || !strings.HasSuffix(s, ")") {
			// "sum:price" and "sum price" are accepted too.
			if i := strings.IndexAny(s, ": "); i > 0 {
				s = s[:i] + "(" + strings.TrimSpace(s[i+1:]) + ")"
				open = i
			} else {
				return nil, sdk.Errorf("aggregate %q is not understood; use count, sum(field), avg(field), min(field) or max(field)", s)
			}
		}
		fn := strings.ToLower(strings.TrimSpace(s[:open]))
		field := strings.TrimSpace(s[open+1 : len(s)-1])
		switch fn {
		case "sum", "avg", "min", "max", "count":
		default:
			return nil, sdk.Errorf("aggregate %q: %s is not a known function; use count, sum, avg, min or max", s, fn)
		}
		if field == "" {
			return nil, sdk.Errorf("aggregate %q needs a field, e.g. %s(price)", s, fn)
		}
		out = append(out, agg{fn: fn, field: field, name: fn + "(" + field + ")"})
	}
	if len(out) == 0 {
		out = append(out, agg{fn: "count", name: "count"})
	}
	return out, nil
}

// acc accumulates one aggregate of one group.
type acc struct {
	n        int
	sum      float64
	min, max any
}

// bucket is one group of rows being aggregated.
type bucket struct {
	key  map[string]any
	accs []*acc
}

// group buckets rows by the group_by fields and computes the aggregates;
// groups come out in order of first appearance.
func group(rows []map[string]any, by []string, aggs []agg) ([]map[string]any, []string) {
	index := map[string]*bucket{}
	var order []*bucket
	for _, r := range rows {
		keyParts := make([]any, len(by))
		for i, f := range by {
			keyParts[i] = lookup(r, f)
		}
		kb, _ := json.Marshal(keyParts)
		b := index[string(kb)]
		if b == nil {
			b = &bucket{key: map[string]any{}}
			for i, f := range by {
				b.key[f] = keyParts[i]
			}
			for i := 0; i < len(aggs); i++ {
				b.accs = append(b.accs, &acc{})
			}
			index[string(kb)] = b
			order = append(order, b)
		}
		for i, a := range aggs {
			ac := b.accs[i]
			if a.fn == "count" && a.field == "" {
				ac.n++
				continue
			}
			v := lookup(r, a.field)
			if v == nil {
				continue
			}
			ac.n++
			if f, ok := number(v); ok {
				ac.sum += f
			}
			if ac.min == nil {
				// Two statements: yaegi fails on a tuple assignment to
				// interface-typed struct fields.
				ac.min = v
				ac.max = v
				continue
			}
			if c, ok := compare(v, ac.min); ok && c < 0 {
				ac.min = v
			}
			if c, ok := compare(v, ac.max); ok && c > 0 {
				ac.max = v
			}
		}
	}
	if len(by) == 0 && len(order) == 0 {
		b := &bucket{key: map[string]any{}}
		for i := 0; i < len(aggs); i++ {
			b.accs = append(b.accs, &acc{})
		}
		order = append(order, b)
	}
	columns := append([]string{}, by...)
	for _, a := range aggs {
		columns = append(columns, a.name)
	}
	out := make([]map[string]any, 0, len(order))
	for _, b := range order {
		row := map[string]any{}
		for k, v := range b.key {
			row[k] = v
		}
		for i, a := range aggs {
			ac := b.accs[i]
			switch a.fn {
			case "count":
				row[a.name] = float64(ac.n)
			case "sum":
				row[a.name] = round(ac.sum)
			case "avg":
				if ac.n == 0 {
					row[a.name] = nil
				} else {
					row[a.name] = round(ac.sum / float64(ac.n))
				}
			case "min":
				row[a.name] = ac.min
			case "max":
				row[a.name] = ac.max
			}
		}
		out = append(out, row)
	}
	return out, columns
}

// round trims binary noise such as 0.30000000000000004.
func round(f float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
	if err != nil {
		return f
	}
	return r
}

type sortKey struct {
	field string
	desc  bool
}

func parseSort(specs []string) ([]sortKey, error) {
	var keys []sortKey
	for _, s := range specs {
		s = strings.TrimSpace(s)
		k := sortKey{field: s}
		low := strings.ToLower(s)
		switch {
		case strings.HasPrefix(s, "-"):
			k = sortKey{field: strings.TrimSpace(s[1:]), desc: true}
		case strings.HasSuffix(low, " desc"):
			k = sortKey{field: strings.TrimSpace(s[:len(s)-5]), desc: true}
		case strings.HasSuffix(low, " asc"):
			k = sortKey{field: strings.TrimSpace(s[:len(s)-4])}
		}
		if k.field == "" {
			return nil, sdk.Errorf("sort_by %q names no field; use e.g. \"age\", \"-age\" or \"age desc\"", s)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// sortRows sorts stably; missing values sort last in either direction.
//
// Each row gets one byte-string key that orders as the sort keys do, and
// the keys are sorted with sort.Strings: a comparator func would run in
// the interpreter n·log n times, which is slow there.
func sortRows(rows []map[string]any, keys []sortKey) {
	if len(rows) < 2 {
		return
	}
	index := make(map[string]map[string]any, len(rows))
	ks := make([]string, len(rows))
	var b strings.Builder
	for i, r := range rows {
		b.Reset()
		for _, k := range keys {
			b.WriteString(sortBytes(lookup(r, k.field), k.desc))
		}
		// The row number breaks ties, which keeps the sort stable.
		b.WriteString(fmt.Sprintf("%08x", i))
		ks[i] = b.String()
		index[ks[i]] = r
	}
	sort.Strings(ks)
	for i, k := range ks {
		rows[i] = index[k]
	}
}

// sortBytes encodes one value so that byte order is sort order: a class
// byte (numbers, then text, then missing; text before numbers when
// descending), then an order-preserving form of the value, inverted for
// descending order.
func sortBytes(v any, desc bool) string {
	if v == nil {
		return "2"
	}
	if f, ok := number(v); ok {
		bits := math.Float64bits(f)
		if bits>>63 == 0 {
			bits |= 1 << 63
		} else {
			bits = ^bits
		}
		class := "0"
		if desc {
			bits = ^bits
			class = "1"
		}
		return class + fmt.Sprintf("%016x", bits)
	}
	s := toString(v)
	if !desc {
		return "1" + strings.ReplaceAll(s, "\x00", "") + "\x00"
	}
	inv := []byte(s)
	for i := range inv {
		inv[i] = ^inv[i]
	}
	return "0" + string(inv) + "\xff"
}

func jsonRows(rows []map[string]any) string {
	if len(rows) == 0 {
		return "[]"
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i, r := range rows {
		line, err := json.Marshal(r)
		if err != nil {
			line = []byte(`{"error":"unencodable row"}`)
		}
		b.Write(line)
		if i < len(rows)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]")
	return b.String()
}

func csvRows(rows []map[string]any, columns []string) (string, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(columns); err != nil {
		return "", err
	}
	rec := make([]string, len(columns))
	for _, r := range rows {
		for i, c := range columns {
			v := lookup(r, c)
			switch v.(type) {
			case map[string]any, []any:
				j, _ := json.Marshal(v)
				rec[i] = string(j)
			default:
				rec[i] = toString(v)
			}
		}
		if err := w.Write(rec); err != nil {
			return "", err
		}
	}
	w.Flush()
	return strings.TrimRight(buf.String(), "\n"), w.Error()
}
