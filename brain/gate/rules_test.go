package gate_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// trickyPatterns exercise what the rules' index and literal filters must
// get right: folding, alternatives, anchors that are not the line start,
// classes, case-sensitive groups and global rules.
var trickyPatterns = []string{
	`^x_run .*"force":true`,
	`"target":"prod"`,
	`(?m)^secret`,
	`^(a_tool|b_tool) .*kill`,
	`^k_tool .*x`,
	`^x_run|danger`,
	`^x_ru[nm] .*\bsudo\b`,
	`^x_run\s.*z{2,}`,
	`^x_run .*(?-i:CaseSensitive)`,
	`^x_run .*\x{FFFD}`,
	`^x_run .*(rm|del)\s+-rf`,
	`^x_run .*a.b`,
	`^x_run `,
	`^ .*lonely`,
	`^(?:x_run|y_run) \{"cmd":"(sudo )?reboot`,
	`^my tool .*y`,
	`^x_run .*(ab)+c`,
	`^x_run .*q{3}`,
}

func synthetic(t testing.TB) []cerebellum.GatePattern {
	var out []cerebellum.GatePattern
	for i, p := range trickyPatterns {
		out = append(out, cerebellum.GatePattern{Capability: "tricky", Block: i%3 == 0, Pattern: skillmd.Pattern{
			Pattern: p, Re: regexp.MustCompile("(?i)" + p), DotAll: regexp.MustCompile("(?is)" + p)}})
	}
	return out
}

// rulesCalls are calls for the tricky patterns and the built-in ones.
func rulesCalls(t *testing.T) []gate.Call {
	calls := []gate.Call{
		{Tool: "x_run", Args: json.RawMessage(`{"force":true}`)},
		{Tool: "X_RUN", Args: json.RawMessage(`{"FORCE":TRUE}`)},
		{Tool: "x_rum", Args: json.RawMessage(`{"cmd":"SUDO ls"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"a":"line\nsecret\nmore"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"a":"A` + "\n" + `B"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"a":"a\nb"}`)},
		{Tool: "other", Args: json.RawMessage(`{"target":"PROD"}`)},
		{Tool: "b_tool", Args: json.RawMessage(`{"c":"KILL it"}`)},
		{Tool: "\u212a_tool", Args: json.RawMessage(`{"x":1}`)}, // Kelvin sign folds to k
		{Tool: "k_tool", Args: json.RawMessage(`{"X":1}`)},
		{Tool: "y_run", Args: json.RawMessage(`{"a":"danger"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"z":"zzz"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"s":"casesensitive"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"s":"CaseSensitive"}`)},
		{Tool: "x_run", Args: json.RawMessage("not json \xff")},
		{Tool: "x_run", Args: json.RawMessage(`{"c":"DEL   -RF /"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"c":"r\"\"m -rf"}`)},
		{Tool: "", Args: json.RawMessage(`{"c":"lonely"}`)},
		{Tool: "y_run", Args: json.RawMessage(`{"cmd":"sudo reboot"}`)},
		{Tool: "my tool", Args: json.RawMessage(`{"y":1}`)},
		{Tool: "my", Args: json.RawMessage(`{"tool":"y"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"x":"ababc qqq"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"c":"\u017fudo ls"}`)},          // long s folds to s
		{Tool: "x_run", Args: json.RawMessage(`{"x":"zz` + "\u212a" + `ill"}`)}, // Kelvin sign in the text
		{Tool: "b_tool", Args: json.RawMessage(`{"c":"` + "\u212a" + `ILL"}`)},
		{Tool: "x_run", Args: json.RawMessage(`{"FoRcE":tRuE,"OverWrite":true}`)},
		{Tool: "x_run", Args: nil},
		{Tool: "fs_write", Args: json.RawMessage(`{"path":"/etc/passwd","content":"x"}`)},
		{Tool: "FS_Write", Args: json.RawMessage(`{"path":"/ETC/passwd","content":"x"}`)},
		{Tool: "fs_read", Args: json.RawMessage(`{"path":"/proc/self/environ"}`)},
		{Tool: "fs_write", Args: json.RawMessage(`{"path":"/home/u/.ssh/config","content":"x"}`)},
		{Tool: "system_open", Args: json.RawMessage(`{"target":"/tmp/run.sh"}`)},
		{Tool: "fs_write", Args: json.RawMessage(`{"path":"/tmp/x","content":"` + strings.Repeat(`sudo rm -rf /\n`, 50) + `"}`)},
	}
	for _, file := range []string{"shell_hostile.txt", "shell_benign.txt"} {
		for _, c := range corpus(t, file) {
			calls = append(calls, gate.Call{Tool: "shell_exec", Args: shellArgs(c[1])})
		}
	}
	return calls
}

// The rules skip only patterns that cannot match: every verdict, with its
// matches and reasons in order, is the one running every pattern gives.
func TestRulesAgreeWithEveryPattern(t *testing.T) {
	pats := append(builtinRegistry(t, nil, nil).Snapshot().Patterns(), synthetic(t)...)
	rules := gate.Compile(pats)
	decided := map[gate.Decision]int{}
	for _, c := range rulesCalls(t) {
		got, want := rules.Evaluate(c), gate.EvaluateEveryPattern(pats, c)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", c.Tool, c.Args, got, want)
		}
		decided[want.Decision]++
	}
	if decided[gate.Block] == 0 || decided[gate.Confirm] == 0 || decided[gate.Allow] == 0 {
		t.Fatalf("the calls should reach every decision, got %v", decided)
	}
}

// The built-in patterns all anchor on their tools and need some text past
// the tool name, so a call runs only a few of them.
func TestRulesFileBuiltinPatterns(t *testing.T) {
	pats := builtinRegistry(t, nil, nil).Snapshot().Patterns()
	anchored, global, filtered := gate.Compile(pats).Filed()
	if anchored != len(pats) || global != 0 {
		t.Errorf("%d of %d patterns filed under their tools, %d global; want all filed", anchored, len(pats), global)
	}
	if filtered < len(pats)*3/4 {
		t.Errorf("only %d of %d patterns have a literal filter", filtered, len(pats))
	}
}

func FuzzRulesAgreeWithEveryPattern(f *testing.F) {
	pats := synthetic(f)
	rules := gate.Compile(pats)
	f.Add("x_run", []byte(`{"force":true}`))
	f.Add("X_RUN", []byte(`{"a":"A\nB"}`))
	f.Add("\u212a_tool", []byte(`{"x":"\u212a"}`))
	f.Add("my tool", []byte("y \xff"))
	f.Add("y_run", []byte(`{"cmd":"reboot"}`))
	f.Fuzz(func(t *testing.T, tool string, args []byte) {
		c := gate.Call{Tool: tool, Args: args}
		if got, want := rules.Evaluate(c), gate.EvaluateEveryPattern(pats, c); !reflect.DeepEqual(got, want) {
			t.Errorf("%q %q:\n got %+v\nwant %+v", tool, args, got, want)
		}
	})
}

// manyRules are n capabilities' patterns the way capabilities write them,
// anchored on their own tools and a few global ones among them.
func manyRules(n int) []cerebellum.GatePattern {
	var out []cerebellum.GatePattern
	add := func(capName string, block bool, p string) {
		out = append(out, cerebellum.GatePattern{Capability: capName, Block: block, Pattern: skillmd.Pattern{
			Pattern: p, Re: regexp.MustCompile("(?i)" + p), DotAll: regexp.MustCompile("(?is)" + p)}})
	}
	for i := range n {
		name := "cap" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + itoa(i)
		add(name, true, `^`+name+`_write .*[{,]"path":"(/etc|/usr|/boot)(/|")`)
		add(name, false, `^(`+name+`_write|`+name+`_delete) .*"overwrite":true`)
		if i%100 == 0 {
			add(name, false, `\bdrop\s+table\s+`+name+`\b`)
		}
	}
	return out
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// longArgs is a 10 KB multi-line write, source code that trips no pattern.
func longArgs() json.RawMessage {
	var b strings.Builder
	for b.Len() < 10<<10 {
		b.WriteString("func handle(w http.ResponseWriter, r *http.Request) {\n\tfmt.Fprintln(w, \"ok\")\n}\n")
	}
	args, _ := json.Marshal(map[string]string{"path": "/home/u/src/main.go", "content": b.String()})
	return args
}

// BenchmarkRulesLongArgument is a gate check of a 10 KB multi-line
// argument against 1,000 capabilities' rules (issue 14: ≤ 100 µs), beside
// the same call with a one-line argument.
func BenchmarkRulesLongArgument(b *testing.B) {
	pats := manyRules(1000)
	rules := gate.Compile(pats)
	tool := "caph501_write"
	for _, bc := range []struct {
		name string
		args json.RawMessage
	}{
		{"10KB-multi-line", longArgs()},
		{"one-line", json.RawMessage(`{"path":"/home/u/notes.txt","content":"hello"}`)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rules.Evaluate(gate.Call{Tool: tool, Args: bc.args})
			}
		})
		b.Run(bc.name+"-every-pattern", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				gate.EvaluateEveryPattern(pats, gate.Call{Tool: tool, Args: bc.args})
			}
		})
	}
}
