package calc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Expression grammar (standard precedence; ^ is right-associative and binds
// tighter than unary minus, so -2^2 = -4):
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "/" | "%") unary }
//	unary   = ("-" | "+") unary | power
//	power   = primary [ "^" unary ]
//	primary = number | constant | name "(" [ expr { "," expr } ] ")" | "(" expr ")"

const (
	maxExprLen   = 2000
	maxExprDepth = 100
)

// calcError is an evaluation error at a 1-based column.
type calcError struct {
	pos int
	msg string
}

func (e *calcError) Error() string {
	if e.pos <= 0 {
		return e.msg
	}
	return fmt.Sprintf("%s at position %d", e.msg, e.pos)
}

type evaluator struct {
	src   string
	i     int
	depth int
}

// evalExpr evaluates an arithmetic expression.
func evalExpr(src string) (float64, error) {
	if len(src) > maxExprLen {
		return 0, &calcError{msg: fmt.Sprintf("the expression is longer than %d characters", maxExprLen)}
	}
	e := &evaluator{src: src}
	e.space()
	if e.i >= len(e.src) {
		return 0, &calcError{msg: "the expression is empty"}
	}
	v, err := e.expr()
	if err != nil {
		return 0, err
	}
	e.space()
	if e.i < len(e.src) {
		return 0, e.errf("unexpected %q", e.rest())
	}
	if math.IsNaN(v) {
		return 0, &calcError{msg: "the result is not a number (e.g. 0/0 or inf-inf)"}
	}
	return v, nil
}

func (e *evaluator) errf(format string, args ...any) error {
	return &calcError{pos: e.i + 1, msg: fmt.Sprintf(format, args...)}
}

// rest shows the next token for messages.
func (e *evaluator) rest() string {
	r := e.src[e.i:]
	if len(r) > 10 {
		r = r[:10] + "..."
	}
	return r
}

func (e *evaluator) space() {
	for e.i < len(e.src) && (e.src[e.i] == ' ' || e.src[e.i] == '\t' || e.src[e.i] == '\n' || e.src[e.i] == '\r') {
		e.i++
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (e *evaluator) peek() byte {
	e.space()
	if e.i < len(e.src) {
		return e.src[e.i]
	}
	return 0
}

func (e *evaluator) expr() (float64, error) {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > maxExprDepth {
		return 0, e.errf("the expression nests deeper than %d levels", maxExprDepth)
	}
	v, err := e.term()
	if err != nil {
		return 0, err
	}
	for {
		c := e.peek()
		if c != '+' && c != '-' {
			return v, nil
		}
		e.i++
		r, err := e.term()
		if err != nil {
			return 0, err
		}
		if c == '+' {
			v += r
		} else {
			v -= r
		}
	}
}

func (e *evaluator) term() (float64, error) {
	v, err := e.unary()
	if err != nil {
		return 0, err
	}
	for {
		c := e.peek()
		if c != '*' && c != '/' && c != '%' {
			return v, nil
		}
		// ** is accepted as power elsewhere; here it is not a product.
		if c == '*' && e.i+1 < len(e.src) && e.src[e.i+1] == '*' {
			return v, nil
		}
		at := e.i
		e.i++
		r, err := e.unary()
		if err != nil {
			return 0, err
		}
		switch c {
		case '*':
			v *= r
		case '/':
			if r == 0 {
				return 0, &calcError{pos: at + 1, msg: "division by zero"}
			}
			v /= r
		case '%':
			if r == 0 {
				return 0, &calcError{pos: at + 1, msg: "modulo by zero"}
			}
			v = math.Mod(v, r)
		}
	}
}

func (e *evaluator) unary() (float64, error) {
	c := e.peek()
	if c == '-' || c == '+' {
		e.depth++
		defer func() { e.depth-- }()
		if e.depth > maxExprDepth {
			return 0, e.errf("too many signs in a row")
		}
		e.i++
		v, err := e.unary()
		if c == '-' {
			v = -v
		}
		return v, err
	}
	return e.power()
}

func (e *evaluator) power() (float64, error) {
	base, err := e.primary()
	if err != nil {
		return 0, err
	}
	c := e.peek()
	isPow := c == '^'
	if c == '*' && e.i+1 < len(e.src) && e.src[e.i+1] == '*' {
		isPow = true
		e.i++
	}
	if !isPow {
		return base, nil
	}
	e.i++
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > maxExprDepth {
		return 0, e.errf("the expression nests deeper than %d levels", maxExprDepth)
	}
	exp, err := e.unary()
	if err != nil {
		return 0, err
	}
	return math.Pow(base, exp), nil
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

func (e *evaluator) primary() (float64, error) {
	c := e.peek()
	start := e.i
	switch {
	case c == 0:
		return 0, e.errf("the expression ends too early: a number, name or ( is missing")
	case c == '(':
		e.i++
		v, err := e.expr()
		if err != nil {
			return 0, err
		}
		if e.peek() != ')' {
			return 0, &calcError{pos: start + 1, msg: "this ( is never closed: add a )"}
		}
		e.i++
		return v, nil
	case isDigit(c) || c == '.':
		for e.i < len(e.src) && (isDigit(e.src[e.i]) || e.src[e.i] == '.' || e.src[e.i] == '_') {
			e.i++
		}
		if e.i < len(e.src) && (e.src[e.i] == 'e' || e.src[e.i] == 'E') {
			j := e.i + 1
			if j < len(e.src) && (e.src[j] == '+' || e.src[j] == '-') {
				j++
			}
			if j < len(e.src) && isDigit(e.src[j]) {
				for j < len(e.src) && isDigit(e.src[j]) {
					j++
				}
				e.i = j
			}
		}
		text := strings.ReplaceAll(e.src[start:e.i], "_", "")
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return 0, &calcError{pos: start + 1, msg: fmt.Sprintf("%q is not a number", e.src[start:e.i])}
		}
		return v, nil
	case isLetter(c):
		for e.i < len(e.src) && (isLetter(e.src[e.i]) || isDigit(e.src[e.i])) {
			e.i++
		}
		word := e.src[start:e.i]
		name := strings.ToLower(word)
		if e.peek() != '(' {
			switch name {
			case "pi":
				return math.Pi, nil
			case "e":
				return math.E, nil
			case "tau":
				return 2 * math.Pi, nil
			case "inf", "infinity":
				return math.Inf(1), nil
			}
			if arity(name) != 0 {
				return 0, &calcError{pos: start + 1, msg: fmt.Sprintf("%s is a function: write %s(x)", name, name)}
			}
			return 0, &calcError{pos: start + 1, msg: fmt.Sprintf("unknown name %q (constants: pi, e, tau)", word)}
		}
		if arity(name) == 0 {
			return 0, &calcError{pos: start + 1, msg: fmt.Sprintf("unknown function %q (known: %s)", word, knownFuncs)}
		}
		open := e.i
		e.i++
		var args []float64
		if e.peek() == ')' {
			e.i++
		} else {
			for {
				v, err := e.expr()
				if err != nil {
					return 0, err
				}
				args = append(args, v)
				if e.peek() == ',' {
					e.i++
					continue
				}
				if e.peek() != ')' {
					return 0, &calcError{pos: open + 1, msg: fmt.Sprintf("%s( is never closed: add a ) or a , between arguments", word)}
				}
				e.i++
				break
			}
		}
		return call(name, args, start+1)
	}
	return 0, e.errf("unexpected %q", e.rest())
}

const knownFuncs = "sqrt, cbrt, abs, round, floor, ceil, trunc, ln, log, log10, log2, exp, sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, hypot, min, max, pow, mod, deg, rad, fact"

// arity is -1 for variadic, the count of arguments, or 0 for unknown.
func arity(name string) int {
	switch name {
	case "sqrt", "cbrt", "abs", "floor", "ceil", "trunc", "ln", "log10", "log2", "exp",
		"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "deg", "rad", "fact":
		return 1
	case "atan2", "hypot", "pow", "mod":
		return 2
	case "round", "log", "min", "max":
		return -1
	}
	return 0
}

// call applies a function; pos locates it for messages.
func call(name string, a []float64, pos int) (float64, error) {
	n := arity(name)
	bad := func(msg string) (float64, error) { return 0, &calcError{pos: pos, msg: name + ": " + msg} }
	if n > 0 && len(a) != n {
		return bad(fmt.Sprintf("takes %d argument(s), got %d", n, len(a)))
	}
	switch name {
	case "sqrt":
		if a[0] < 0 {
			return bad("square root of a negative number")
		}
		return math.Sqrt(a[0]), nil
	case "cbrt":
		return math.Cbrt(a[0]), nil
	case "abs":
		return math.Abs(a[0]), nil
	case "floor":
		return math.Floor(a[0]), nil
	case "ceil":
		return math.Ceil(a[0]), nil
	case "trunc":
		return math.Trunc(a[0]), nil
	case "round":
		if len(a) == 1 {
			return math.Round(a[0]), nil
		}
		if len(a) != 2 || a[1] != math.Trunc(a[1]) || a[1] < -15 || a[1] > 15 {
			return bad("use round(x) or round(x, digits) with digits between -15 and 15")
		}
		p := math.Pow(10, a[1])
		return math.Round(a[0]*p) / p, nil
	case "ln":
		if a[0] <= 0 {
			return bad("logarithm of a number <= 0")
		}
		return math.Log(a[0]), nil
	case "log10", "log2":
		if a[0] <= 0 {
			return bad("logarithm of a number <= 0")
		}
		if name == "log2" {
			return math.Log2(a[0]), nil
		}
		return math.Log10(a[0]), nil
	case "log":
		// log(x) is base 10, log(x, b) base b.
		if len(a) < 1 || len(a) > 2 {
			return bad("use log(x) for base 10 or log(x, base)")
		}
		if a[0] <= 0 {
			return bad("logarithm of a number <= 0")
		}
		if len(a) == 1 {
			return math.Log10(a[0]), nil
		}
		if a[1] <= 0 || a[1] == 1 {
			return bad("the base must be > 0 and not 1")
		}
		return math.Log(a[0]) / math.Log(a[1]), nil
	case "exp":
		return math.Exp(a[0]), nil
	case "sin":
		return math.Sin(a[0]), nil
	case "cos":
		return math.Cos(a[0]), nil
	case "tan":
		return math.Tan(a[0]), nil
	case "asin", "acos":
		if a[0] < -1 || a[0] > 1 {
			return bad("the argument must be between -1 and 1")
		}
		if name == "asin" {
			return math.Asin(a[0]), nil
		}
		return math.Acos(a[0]), nil
	case "atan":
		return math.Atan(a[0]), nil
	case "atan2":
		return math.Atan2(a[0], a[1]), nil
	case "sinh":
		return math.Sinh(a[0]), nil
	case "cosh":
		return math.Cosh(a[0]), nil
	case "tanh":
		return math.Tanh(a[0]), nil
	case "hypot":
		return math.Hypot(a[0], a[1]), nil
	case "pow":
		return math.Pow(a[0], a[1]), nil
	case "mod":
		if a[1] == 0 {
			return bad("modulo by zero")
		}
		return math.Mod(a[0], a[1]), nil
	case "deg":
		return a[0] * 180 / math.Pi, nil
	case "rad":
		return a[0] * math.Pi / 180, nil
	case "fact":
		if a[0] < 0 || a[0] != math.Trunc(a[0]) || a[0] > 170 {
			return bad("needs a whole number from 0 to 170")
		}
		r := 1.0
		for i := 2.0; i <= a[0]; i++ {
			r *= i
		}
		return r, nil
	case "min", "max":
		if len(a) == 0 {
			return bad("needs at least one argument")
		}
		r := a[0]
		for _, x := range a[1:] {
			if (name == "min" && x < r) || (name == "max" && x > r) {
				r = x
			}
		}
		return r, nil
	}
	return bad("unknown function")
}

// formatNumber shows a result with up to 12 significant digits, without
// exponent for ordinary magnitudes.
func formatNumber(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "infinity"
	case math.IsInf(v, -1):
		return "-infinity"
	case v == 0:
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e-6 && a < 1e15 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 12, 64)
}
