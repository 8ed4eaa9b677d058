package data

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A where expression:
//
//	expr    = or
//	or      = and { ("or" | "||") and }
//	and     = unary { ("and" | "&&") unary }
//	unary   = ("not" | "!") unary | "(" expr ")" | compare
//	compare = operand [ op operand ]
//	op      = == = != <> > >= < <= contains startswith endswith in matches
//	operand = field | `quoted field` | "string" | 'string' | number | true | false | null | [list]
//
// Fields use dot paths into nested objects (address.city).

// node is one parsed expression node.
type node struct {
	kind  string // or, and, not, cmp, truthy
	op    string
	left  *node
	right *node
	a, b  operand
	re    *regexp.Regexp
}

// operand is a field reference or a literal.
type operand struct {
	field string
	isRef bool
	value any
}

type token struct {
	kind string // ident, field, string, number, op, lparen, rparen, lbrack, rbrack, comma, eof
	text string
	pos  int // 1-based column
}

// lex splits src into tokens; errors name the column.
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(':
			toks = append(toks, token{"lparen", "(", i + 1})
			i++
		case c == ')':
			toks = append(toks, token{"rparen", ")", i + 1})
			i++
		case c == '[':
			toks = append(toks, token{"lbrack", "[", i + 1})
			i++
		case c == ']':
			toks = append(toks, token{"rbrack", "]", i + 1})
			i++
		case c == ',':
			toks = append(toks, token{"comma", ",", i + 1})
			i++
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			var b strings.Builder
			closed := false
			for j < len(src) {
				if src[j] == '\\' && j+1 < len(src) {
					b.WriteByte(src[j+1])
					j += 2
					continue
				}
				if src[j] == c {
					closed = true
					break
				}
				b.WriteByte(src[j])
				j++
			}
			if !closed {
				return nil, fmt.Errorf("unclosed %c quote starting at column %d", c, i+1)
			}
			kind := "string"
			if c == '`' {
				kind = "field"
			}
			toks = append(toks, token{kind, b.String(), i + 1})
			i = j + 1
		case strings.IndexByte("=!<>&|", c) >= 0:
			two := ""
			if i+1 < len(src) {
				two = src[i : i+2]
			}
			switch two {
			case "==", "!=", "<=", ">=", "<>", "&&", "||":
				toks = append(toks, token{"op", two, i + 1})
				i += 2
				continue
			}
			if c == '&' || c == '|' {
				return nil, fmt.Errorf("unexpected %q at column %d (use and, or, && or ||)", string(c), i+1)
			}
			toks = append(toks, token{"op", string(c), i + 1})
			i++
		case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == 'e' || src[j] == 'E' ||
				((src[j] == '-' || src[j] == '+') && (src[j-1] == 'e' || src[j-1] == 'E'))) {
				j++
			}
			if _, err := strconv.ParseFloat(src[i:j], 64); err != nil {
				return nil, fmt.Errorf("%q at column %d is not a number", src[i:j], i+1)
			}
			toks = append(toks, token{"number", src[i:j], i + 1})
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i + 1
			for j < len(src) && (src[j] == '_' || src[j] == '.' || src[j] == '-' || src[j] >= 'a' && src[j] <= 'z' ||
				src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9' || src[j] >= 0x80) {
				j++
			}
			toks = append(toks, token{"ident", src[i:j], i + 1})
			i = j
		default:
			return nil, fmt.Errorf("unexpected character %q at column %d", string(c), i+1)
		}
	}
	toks = append(toks, token{"eof", "", len(src) + 1})
	return toks, nil
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 50

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) word(t token, words ...string) bool {
	if t.kind != "ident" && t.kind != "op" {
		return false
	}
	for _, w := range words {
		if strings.EqualFold(t.text, w) {
			return true
		}
	}
	return false
}

// parseWhere parses a filter expression.
func parseWhere(src string) (*node, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	if p.peek().kind == "eof" {
		return nil, fmt.Errorf("the expression is empty")
	}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != "eof" {
		return nil, fmt.Errorf("unexpected %q at column %d (join conditions with and / or)", t.text, t.pos)
	}
	return n, nil
}

func (p *parser) or() (*node, error) {
	left, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.word(p.peek(), "or", "||") {
		p.next()
		right, err := p.and()
		if err != nil {
			return nil, err
		}
		left = &node{kind: "or", left: left, right: right}
	}
	return left, nil
}

func (p *parser) and() (*node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.word(p.peek(), "and", "&&") {
		p.next()
		right, err := p.unary()
		if err != nil {
			return nil, err
		}
		left = &node{kind: "and", left: left, right: right}
	}
	return left, nil
}

func (p *parser) unary() (*node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, fmt.Errorf("the expression nests deeper than %d levels", maxDepth)
	}
	t := p.peek()
	if p.word(t, "not", "!") {
		p.next()
		inner, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &node{kind: "not", left: inner}, nil
	}
	if t.kind == "lparen" {
		p.next()
		inner, err := p.or()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != "rparen" {
			return nil, fmt.Errorf("expected ) at column %d to close the ( at column %d", c.pos, t.pos)
		}
		return inner, nil
	}
	return p.compare()
}

// canonicalOp maps accepted operator spellings to canonical ones.
func canonicalOp(s string) (string, bool) {
	switch strings.ToLower(s) {
	case "==", "=":
		return "==", true
	case "!=", "<>":
		return "!=", true
	case ">", ">=", "<", "<=", "contains", "startswith", "endswith", "in", "matches":
		return strings.ToLower(s), true
	}
	return "", false
}

func (p *parser) compare() (*node, error) {
	a, err := p.operand()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	op, isOp := canonicalOp(t.text)
	if !isOp || (t.kind != "op" && t.kind != "ident") {
		if _, isBool := a.value.(bool); !a.isRef && !isBool && a.value != nil {
			return nil, fmt.Errorf("expected a comparison such as == or > at column %d", t.pos)
		}
		return &node{kind: "truthy", a: a}, nil
	}
	p.next()
	var b operand
	if op == "in" {
		b, err = p.list()
	} else {
		b, err = p.operand()
	}
	if err != nil {
		return nil, err
	}
	n := &node{kind: "cmp", op: op, a: a, b: b}
	if op == "matches" {
		s, ok := b.value.(string)
		if b.isRef || !ok {
			return nil, fmt.Errorf("matches needs a quoted regular expression at column %d", t.pos)
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("the regular expression after matches (column %d) is invalid: %v", t.pos, err)
		}
		n.re = re
	}
	return n, nil
}

func (p *parser) list() (operand, error) {
	open := p.next()
	if open.kind != "lbrack" {
		return operand{}, fmt.Errorf("in needs a list like [\"a\", \"b\"] at column %d", open.pos)
	}
	var vals []any
	for {
		if p.peek().kind == "rbrack" {
			p.next()
			return operand{value: vals}, nil
		}
		v, err := p.operand()
		if err != nil {
			return operand{}, err
		}
		if v.isRef {
			return operand{}, fmt.Errorf("a list holds values, not fields (column %d); quote strings", open.pos)
		}
		vals = append(vals, v.value)
		// Not `switch t := p.next(); t.kind`: yaegi mis-evaluates a switch
		// tag that uses its init statement's variable.
		t := p.next()
		if t.kind == "rbrack" {
			return operand{value: vals}, nil
		}
		if t.kind != "comma" {
			return operand{}, fmt.Errorf("expected , or ] at column %d", t.pos)
		}
	}
}

func (p *parser) operand() (operand, error) {
	t := p.next()
	switch t.kind {
	case "string":
		return operand{value: t.text}, nil
	case "number":
		f, _ := strconv.ParseFloat(t.text, 64)
		return operand{value: f}, nil
	case "field":
		return operand{field: t.text, isRef: true}, nil
	case "ident":
		switch strings.ToLower(t.text) {
		case "true":
			return operand{value: true}, nil
		case "false":
			return operand{value: false}, nil
		case "null", "nil":
			return operand{value: nil}, nil
		case "and", "or", "not", "in", "contains", "startswith", "endswith", "matches":
			return operand{}, fmt.Errorf("expected a field or value at column %d, found the keyword %q", t.pos, t.text)
		}
		return operand{field: t.text, isRef: true}, nil
	case "eof":
		return operand{}, fmt.Errorf("expected a field or value at the end of the expression")
	}
	return operand{}, fmt.Errorf("expected a field or value at column %d, found %q", t.pos, t.text)
}

// lookup reads a dot path from a row.
func lookup(row map[string]any, field string) any {
	if v, ok := row[field]; ok {
		return v
	}
	var cur any = row
	for _, part := range strings.Split(field, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur, ok = m[part]
		if !ok {
			return nil
		}
	}
	return cur
}

// getOperand and evalNode are plain functions, not methods: in the
// interpreter a method call costs several times a function call, and
// these run once per row.
func getOperand(o *operand, row map[string]any) any {
	if o.isRef {
		return lookup(row, o.field)
	}
	return o.value
}

// evalNode reports whether row satisfies n.
func evalNode(n *node, row map[string]any) bool {
	switch n.kind {
	case "or":
		return evalNode(n.left, row) || evalNode(n.right, row)
	case "and":
		return evalNode(n.left, row) && evalNode(n.right, row)
	case "not":
		return !evalNode(n.left, row)
	case "truthy":
		return truthy(getOperand(&n.a, row))
	}
	a := getOperand(&n.a, row)
	b := getOperand(&n.b, row)
	switch n.op {
	case "==":
		return equal(a, b)
	case "!=":
		return !equal(a, b)
	case ">", ">=", "<", "<=":
		c, ok := compare(a, b)
		if !ok {
			return false
		}
		switch n.op {
		case ">":
			return c > 0
		case ">=":
			return c >= 0
		case "<":
			return c < 0
		}
		return c <= 0
	case "contains":
		if list, ok := a.([]any); ok {
			for _, x := range list {
				if equal(x, b) {
					return true
				}
			}
			return false
		}
		as, bs := toString(a), toString(b)
		return a != nil && b != nil && strings.Contains(strings.ToLower(as), strings.ToLower(bs))
	case "startswith":
		return a != nil && b != nil && strings.HasPrefix(strings.ToLower(toString(a)), strings.ToLower(toString(b)))
	case "endswith":
		return a != nil && b != nil && strings.HasSuffix(strings.ToLower(toString(a)), strings.ToLower(toString(b)))
	case "in":
		list, _ := b.([]any)
		for _, x := range list {
			if equal(a, x) {
				return true
			}
		}
		return false
	case "matches":
		return a != nil && n.re.MatchString(toString(a))
	}
	return false
}

func truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case float64:
		return t != 0
	case string:
		return t != ""
	case []any:
		return len(t) > 0
	case map[string]any:
		return len(t) > 0
	}
	return true
}

// number reads v as a number: numbers, and strings that parse as one.
func number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err == nil && !math.IsNaN(f) {
			return f, true
		}
	}
	return 0, false
}

func toString(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	}
	return fmt.Sprint(v)
}

func equal(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if af, ok := a.(float64); ok {
		if bf, ok := number(b); ok {
			return af == bf
		}
	}
	if bf, ok := b.(float64); ok {
		if af, ok := number(a); ok {
			return af == bf
		}
	}
	if ab, ok := a.(bool); ok {
		bb, ok := b.(bool)
		return ok && ab == bb
	}
	return toString(a) == toString(b)
}

// compare orders a and b: numerically when both read as numbers,
// otherwise as text. ok is false when either is missing.
func compare(a, b any) (int, bool) {
	if a == nil || b == nil {
		return 0, false
	}
	if af, ok := number(a); ok {
		if bf, ok := number(b); ok {
			switch {
			case af < bf:
				return -1, true
			case af > bf:
				return 1, true
			}
			return 0, true
		}
	}
	return strings.Compare(toString(a), toString(b)), true
}
