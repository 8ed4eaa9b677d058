package calc

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func TestInitRegistersDeclaredTools(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := skillmd.Parse(data, skillmd.Options{Folder: "calc"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Init(&sdk.Env{Name: "calc"})
	var declared []string
	for _, tool := range m.Tools {
		declared = append(declared, tool.Name)
	}
	if got := strings.Join(p.ToolNames(), ","); got != "calc_convert,calc_date,calc_eval" || len(declared) != 3 {
		t.Fatalf("registered %s, declared %v", got, declared)
	}
	for _, n := range declared {
		if p.Handler(n) == nil {
			t.Errorf("%s has no handler", n)
		}
	}
}

func TestEval(t *testing.T) {
	tests := []struct {
		expr string
		want float64
	}{
		{"1+2*3", 7}, {"(1+2)*3", 9}, {"2^3^2", 512}, {"-2^2", -4}, {"(-2)^2", 4}, {"2**10", 1024},
		{"10/4", 2.5}, {"10 % 3", 1}, {"-7 % 3", -1}, {"--3", 3}, {"+-3", -3}, {"2*-3", -6},
		{"sqrt(16) + abs(-2)", 6}, {"round(2.5)", 3}, {"round(3.14159, 2)", 3.14}, {"floor(-1.5)", -2},
		{"ceil(1.2)", 2}, {"trunc(-1.7)", -1}, {"ln(e)", 1}, {"log(1000)", 3}, {"log(8, 2)", 3},
		{"log10(0.01)", -2}, {"log2(1024)", 10}, {"exp(0)", 1}, {"sin(0)", 0}, {"cos(pi)", -1},
		{"deg(pi)", 180}, {"rad(180)", math.Pi}, {"min(3, 1, 2)", 1}, {"max(3, 1, 2)", 3}, {"fact(5)", 120},
		{"hypot(3, 4)", 5}, {"atan2(1, 1)", math.Pi / 4}, {"pow(2, 0.5)", math.Sqrt2}, {"mod(7, 4)", 3},
		{"1e3 + 1.5E-1", 1000.15}, {"1_000_000 / 1000", 1000}, {".5 * 4", 2}, {"PI", math.Pi}, {"tau/2", math.Pi},
		{" 2 * ( 3 + 4 ) ", 14}, {"1250 * 1.077 / 12", 112.1875},
	}
	for _, tc := range tests {
		got, err := evalExpr(tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		if math.Abs(got-tc.want) > 1e-9*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s = %v, want %v", tc.expr, got, tc.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	tests := map[string]string{
		"":            "the expression is empty",
		"1 +":         "ends too early",
		"(1 + 2":      "this ( is never closed: add a ) at position 1",
		"1 + 2)":      `unexpected ")" at position 6`,
		"1 / 0":       "division by zero at position 3",
		"5 % (2-2)":   "modulo by zero at position 3",
		"sqrt(-1)":    "sqrt: square root of a negative number at position 1",
		"foo(2)":      `unknown function "foo"`,
		"x + 1":       `unknown name "x"`,
		"sqrt":        "sqrt is a function",
		"sqrt(1, 2)":  "takes 1 argument(s), got 2",
		"max()":       "needs at least one argument",
		"log(0)":      "logarithm of a number <= 0",
		"1.2.3":       `"1.2.3" is not a number at position 1`,
		"2 $ 3":       `unexpected "$ 3" at position 3`,
		"min(1,":      "ends too early",
		"max(1 2)":    "max( is never closed: add a ) or a , between arguments at position 4",
		"fact(2.5)":   "whole number",
		"0/0 + 0*inf": "division by zero",
		"inf - inf":   "not a number",
		strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200): "nests deeper than 100",
		strings.Repeat("-", 300) + "1":                            "too many signs",
		strings.Repeat("1+", 1001) + "1":                          "longer than 2000",
	}
	for expr, want := range tests {
		_, err := evalExpr(expr)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: error = %v, want %q", expr, err, want)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 7: "7", -2.5: "-2.5", 0.1 + 0.2: "0.3", 1.0 / 3: "0.333333333333", 1e20: "1e+20",
		1e-9: "1e-09", 123456789012: "123456789012", math.Inf(1): "infinity", 112.1875: "112.1875",
	} {
		if got := formatNumber(v); got != want {
			t.Errorf("formatNumber(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestConvert(t *testing.T) {
	table := unitTable()
	tests := []struct {
		value    float64
		from, to string
		want     float64
	}{
		{1, "km", "m", 1000}, {1, "mi", "km", 1.609344}, {12, "in", "ft", 1}, {100, "cm", "inch", 39.37007874},
		{1, "kg", "lb", 2.20462262185}, {16, "oz", "lb", 1}, {100, "C", "F", 212}, {32, "F", "C", 0},
		{0, "K", "celsius", -273.15}, {98.6, "fahrenheit", "K", 310.15}, {1, "gal", "l", 3.785411784},
		{1, "l", "ml", 1000}, {1, "imperial gallon", "l", 4.54609}, {90, "min", "h", 1.5}, {1, "week", "days", 7},
		{1, "GiB", "MiB", 1024}, {1, "GB", "MB", 1000}, {1, "MB", "Mb", 8}, {1, "byte", "bits", 8},
		{1000, "KiB", "kB", 1024}, {100, "km/h", "m/s", 27.7777777778}, {60, "mph", "km/h", 96.56064},
		{1, "knot", "km/h", 1.852}, {1, "ha", "m2", 10000}, {1, "acre", "ha", 0.40468564224},
		{1, "kWh", "kJ", 3600}, {1, "atm", "psi", 14.6959487755}, {100, "Mbps", "MB/s", 12.5},
		{2, "Kilometers", "Meters", 2000}, {3, "feet", "yards", 1}, {1, "mb", "kb", 1000},
	}
	for _, tc := range tests {
		got, _, _, err := convert(table, tc.value, tc.from, tc.to)
		if err != nil {
			t.Errorf("%v %s -> %s: %v", tc.value, tc.from, tc.to, err)
			continue
		}
		if math.Abs(got-tc.want) > 1e-8*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%v %s -> %s = %v, want %v", tc.value, tc.from, tc.to, got, tc.want)
		}
	}
	for _, tc := range []struct{ from, to, want string }{
		{"km", "kg", "cannot convert km (length) to kg (mass)"},
		{"parsec", "m", `unknown unit "parsec"; known units:`},
		{"m", "", `unknown unit ""`},
	} {
		if _, _, _, err := convert(table, 1, tc.from, tc.to); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s -> %s: error = %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
	if _, _, _, err := convert(table, -300, "C", "K"); err == nil || !strings.Contains(err.Error(), "below absolute zero") {
		t.Errorf("below absolute zero: %v", err)
	}
}

func TestDate(t *testing.T) {
	now := time.Date(2025, 3, 9, 14, 30, 0, 0, time.UTC)
	tests := []struct {
		op, date, other string
		amount          int
		unit            string
		want            string
		errWant         string
	}{
		{op: "diff", date: "2024-01-01", other: "2024-03-01", want: "60 days = 8 weeks 4 days = 0 years 2 months 0 days"},
		{op: "diff", date: "2025-03-09", other: "2024-03-09", want: "-365 days = -52 weeks 1 days = -1 years 0 months 0 days"},
		{op: "diff", date: "2025-01-31", other: "2025-03-01", want: "29 days = 4 weeks 1 days = 0 years 1 months 1 days"},
		{op: "diff", date: "2025-03-09T08:00", other: "2025-03-10T20:30", want: "exactly 36h30m0s (36.50 hours)"},
		{op: "diff", date: "2025-01-01", want: "to 2025-03-09 (Sunday): 67 days"},
		{op: "add", date: "2024-01-31", amount: 1, unit: "months", want: "= 2024-02-29 (Thursday)"},
		{op: "add", date: "2023-01-31", amount: 1, unit: "month", want: "= 2023-02-28 (Tuesday)"},
		{op: "add", date: "2024-02-29", amount: 1, unit: "years", want: "= 2025-02-28 (Friday)"},
		{op: "add", date: "2025-03-09", amount: 30, unit: "days", want: "= 2025-04-08 (Tuesday)"},
		{op: "add", date: "2025-03-09", amount: -2, unit: "weeks", want: "= 2025-02-23 (Sunday)"},
		{op: "subtract", date: "2025-03-01", amount: 13, unit: "months", want: "= 2024-02-01 (Thursday)"},
		{op: "add", date: "2025-03-07", amount: 1, unit: "business days", want: "= 2025-03-10 (Monday)"},
		{op: "add", date: "2025-03-10", amount: -1, unit: "business days", want: "= 2025-03-07 (Friday)"},
		{op: "add", date: "2025-03-09T23:00", amount: 2, unit: "hours", want: "= 2025-03-10T01:00:00Z (Monday)"},
		{op: "add", date: "today", amount: 1, unit: "days", want: "2025-03-09 (Sunday) +1 days = 2025-03-10 (Monday)"},
		{op: "weekday", date: "2024-12-30", want: "2024-12-30 is a Monday; ISO week 1, day 365 of 366, quarter 4, leap year"},
		{op: "weekday", date: "tomorrow", want: "2025-03-10 is a Monday"},
		{op: "format", date: "2025-03-09", want: "long: Sunday, 9 March 2025\nUS: 03/09/2025\nEuropean: 09.03.2025"},
		{op: "format", date: "now", want: "ISO 8601 with time: 2025-03-09T14:30:00Z"},
		{op: "diff", date: "09/03/2025", errWant: "not an ISO 8601 date"},
		{op: "diff", date: "2025-03-09", other: "soon", errWant: "other:"},
		{op: "add", date: "2025-03-09", amount: 1, unit: "fortnights", errWant: "not supported"},
		{op: "explode", date: "2025-03-09", errWant: `op "explode" is not supported`},
	}
	for _, tc := range tests {
		other := tc.other
		if other == "" {
			other = "today"
		}
		unit := tc.unit
		if unit == "" {
			unit = "days"
		}
		got, err := dateOp(tc.op, tc.date, other, tc.amount, unit, now)
		if tc.errWant != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errWant) {
				t.Errorf("%s %s: error = %v, want %q", tc.op, tc.date, err, tc.errWant)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", tc.op, tc.date, err)
			continue
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s %s %s: got %q, want it to contain %q", tc.op, tc.date, other, got, tc.want)
		}
	}
}

func TestTools(t *testing.T) {
	p, _ := Init(&sdk.Env{Name: "calc"})
	tests := []struct {
		tool    string
		args    map[string]any
		want    string
		errWant string
	}{
		{tool: "calc_eval", args: map[string]any{"expression": " 2 + 2 "}, want: "2 + 2 = 4"},
		{tool: "calc_eval", args: map[string]any{"expression": "2 +"}, errWant: `cannot evaluate "2 +"`},
		{tool: "calc_convert", args: map[string]any{"value": 5, "from": "km", "to": "mi"}, want: "5 km = 3.10685596119 mi"},
		{tool: "calc_convert", args: map[string]any{"value": 100, "from": "celsius", "to": "F"}, want: "100 °C = 212 °F"},
		{tool: "calc_convert", args: map[string]any{"from": "km", "to": "mi"}, errWant: "value is missing"},
		{tool: "calc_convert", args: map[string]any{"value": 1, "from": "km", "to": "kg"}, errWant: "cannot convert"},
		{tool: "calc_date", args: map[string]any{"op": "weekday", "date": "2000-01-01"}, want: "2000-01-01 is a Saturday"},
		{tool: "calc_date", args: map[string]any{"op": "add", "date": "2000-01-01", "amount": 1, "unit": "years"}, want: "2001-01-01"},
		{tool: "calc_date", args: map[string]any{"op": "nope"}, errWant: "not supported"},
	}
	for _, tc := range tests {
		raw, _ := json.Marshal(tc.args)
		req, _ := sdk.NewRequest(tc.tool, raw)
		res, err := p.Handler(tc.tool)(context.Background(), req)
		if tc.errWant != "" {
			var te *sdk.ToolError
			if err == nil || !errors.As(err, &te) || !strings.Contains(err.Error(), tc.errWant) {
				t.Errorf("%s %v: error = %v, want %q", tc.tool, tc.args, err, tc.errWant)
			}
			continue
		}
		if err != nil || !strings.Contains(res.Text, tc.want) {
			t.Errorf("%s %v = %v, %v; want %q", tc.tool, tc.args, res, err, tc.want)
		}
	}
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{"1+2*3", "-(2^-3)**2", "sqrt(2)*max(1,2,3)", "round(1e308*10, 2)", "log(8,2)%3", "((1))", "fact(170)/fact(169)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := evalExpr(s)
		if err != nil {
			var ce *calcError
			if !errors.As(err, &ce) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if ce.pos < 0 || ce.pos > len(s)+1 {
				t.Fatalf("position %d outside the input (len %d)", ce.pos, len(s))
			}
			return
		}
		if math.IsNaN(v) {
			t.Fatalf("%q gave NaN without an error", s)
		}
		formatNumber(v)
	})
}
