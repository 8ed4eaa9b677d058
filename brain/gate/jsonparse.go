package gate

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// parseJSON decodes one JSON document as encoding/json's Decoder with
// UseNumber decodes it into an `any` (objects as map[string]any with the
// last of repeated keys, arrays as []any, numbers as json.Number), and
// accepts exactly what json.Valid accepts, in a single pass: the gate
// reads every argument of every call, and a long multi-line argument costs
// several passes of the general decoder. The tests compare the two.
func parseJSON(data []byte) (any, error) {
	p := jsonParser{data: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.data) {
		return nil, errJSONSyntax
	}
	return v, nil
}

// errJSONSyntax is any syntax error; callers wrap ErrInvalidJSON around it.
var errJSONSyntax = errors.New("invalid JSON syntax")

// maxJSONDepth is encoding/json's nesting limit.
const maxJSONDepth = 10000

type jsonParser struct {
	data []byte
	i    int
}

func (p *jsonParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (any, error) {
	if p.i >= len(p.data) {
		return nil, errJSONSyntax
	}
	switch c := p.data[p.i]; {
	case c == '{':
		if depth+1 > maxJSONDepth {
			return nil, errJSONSyntax
		}
		return p.object(depth + 1)
	case c == '[':
		if depth+1 > maxJSONDepth {
			return nil, errJSONSyntax
		}
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || ('0' <= c && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, errJSONSyntax
}

func (p *jsonParser) literal(word string) error {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		return errJSONSyntax
	}
	p.i += len(word)
	return nil
}

func (p *jsonParser) object(depth int) (any, error) {
	p.i++ // {
	m := map[string]any{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, errJSONSyntax
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, errJSONSyntax
		}
		p.i++
		p.space()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.space()
		if p.i >= len(p.data) {
			return nil, errJSONSyntax
		}
		switch p.data[p.i] {
		case ',':
			p.i++
			p.space()
		case '}':
			p.i++
			return m, nil
		default:
			return nil, errJSONSyntax
		}
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	p.i++ // [
	a := []any{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.space()
		if p.i >= len(p.data) {
			return nil, errJSONSyntax
		}
		switch p.data[p.i] {
		case ',':
			p.i++
			p.space()
		case ']':
			p.i++
			return a, nil
		default:
			return nil, errJSONSyntax
		}
	}
}

func (p *jsonParser) number() (any, error) {
	start := p.i
	d := p.data
	if p.i < len(d) && d[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(d) && d[p.i] == '0':
		p.i++
	case p.i < len(d) && '1' <= d[p.i] && d[p.i] <= '9':
		for p.i < len(d) && '0' <= d[p.i] && d[p.i] <= '9' {
			p.i++
		}
	default:
		return nil, errJSONSyntax
	}
	if p.i < len(d) && d[p.i] == '.' {
		p.i++
		if !p.digits() {
			return nil, errJSONSyntax
		}
	}
	if p.i < len(d) && (d[p.i] == 'e' || d[p.i] == 'E') {
		p.i++
		if p.i < len(d) && (d[p.i] == '+' || d[p.i] == '-') {
			p.i++
		}
		if !p.digits() {
			return nil, errJSONSyntax
		}
	}
	return json.Number(d[start:p.i]), nil
}

// digits consumes one or more decimal digits.
func (p *jsonParser) digits() bool {
	start := p.i
	for p.i < len(p.data) && '0' <= p.data[p.i] && p.data[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// str reads a string, decoding it as encoding/json does: escapes, a lone
// or broken surrogate and each byte that is not UTF-8 become U+FFFD.
func (p *jsonParser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	d := p.data
	// Fast path: no escapes, no control characters, valid UTF-8.
	for p.i < len(d) {
		c := d[p.i]
		if c == '"' {
			s := string(d[start:p.i])
			p.i++
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		if c < utf8.RuneSelf {
			p.i++
			continue
		}
		r, size := utf8.DecodeRune(d[p.i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		p.i += size
	}
	// Decoded, the string is at most as long as it is written (but for
	// bytes that are not UTF-8, each of which grows to three).
	var b strings.Builder
	b.Grow(p.i - start + rawStringLen(d[p.i:]))
	b.Write(d[start:p.i])
	for {
		if p.i >= len(d) {
			return "", errJSONSyntax
		}
		c := d[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", errJSONSyntax
		case c == '\\':
			if p.i+1 >= len(d) {
				return "", errJSONSyntax
			}
			e := d[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := hex4(d[p.i:])
				if !ok {
					return "", errJSONSyntax
				}
				p.i += 4
				if utf16.IsSurrogate(r) {
					// A pair only when a valid low half follows as \uXXXX;
					// otherwise U+FFFD, and what follows is read on its own.
					if len(d)-p.i >= 6 && d[p.i] == '\\' && d[p.i+1] == 'u' {
						if r1, ok := hex4(d[p.i+2:]); ok {
							if dec := utf16.DecodeRune(r, r1); dec != utf8.RuneError {
								p.i += 6
								b.WriteRune(dec)
								break
							}
						}
					}
					r = utf8.RuneError
				}
				b.WriteRune(r)
			default:
				return "", errJSONSyntax
			}
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.i++
		default:
			r, size := utf8.DecodeRune(d[p.i:])
			p.i += size
			b.WriteRune(r) // RuneError for a bad byte
		}
	}
}

// rawStringLen is how many bytes of s come before the quote that ends the
// string s is inside (all of s when none does).
func rawStringLen(s []byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i
		case '\\':
			i++
		}
	}
	return len(s)
}

// hex4 reads four hex digits.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}
