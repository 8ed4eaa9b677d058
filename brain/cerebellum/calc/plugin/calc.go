// Package calc is the plugin of the built-in calc capability: exact
// arithmetic (calc_eval), unit conversion (calc_convert) and date
// arithmetic (calc_date), so the model does not compute in its head.
//
// The source is interpreted by yaegi at run time: no goroutines, no
// package-level mutable state, stdlib and the SDK only. The expression
// parser reads untrusted text and is fuzzed (FuzzEval).
package calc

import (
	"context"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// calc holds the unit table and the clock, built in Init.
type calc struct {
	units map[string]unit
	now   func() time.Time
}

// Init registers calc_eval, calc_convert and calc_date.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	c := &calc{units: unitTable(), now: time.Now}
	p := sdk.NewPlugin()
	p.Handle("calc_eval", c.eval)
	p.Handle("calc_convert", c.convert)
	p.Handle("calc_date", c.date)
	return p, nil
}

func (c *calc) eval(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	expr := req.String("expression", "")
	v, err := evalExpr(expr)
	if err != nil {
		return nil, sdk.Errorf("cannot evaluate %q: %v", expr, err)
	}
	return sdk.Textf("%s = %s", strings.TrimSpace(expr), formatNumber(v)), nil
}

func (c *calc) convert(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	if !req.Has("value") {
		return nil, sdk.Errorf("value is missing: pass the number to convert")
	}
	value := req.Float("value", 0)
	from, to := req.String("from", ""), req.String("to", "")
	r, fu, tu, err := convert(c.units, value, from, to)
	if err != nil {
		return nil, sdk.Errorf("%v", err)
	}
	return sdk.Textf("%s %s = %s %s", formatNumber(value), fu.name, formatNumber(r), tu.name), nil
}

func (c *calc) date(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	out, err := dateOp(req.String("op", ""), req.String("date", "today"), req.String("other", "today"),
		req.Int("amount", 0), req.String("unit", "days"), c.now())
	if err != nil {
		return nil, sdk.Errorf("%v", err)
	}
	return sdk.Text(out), nil
}
