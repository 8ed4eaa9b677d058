package gate

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Decision is what the gate says about a call.
type Decision string

const (
	// Allow lets the call run.
	Allow Decision = "allow"
	// Block refuses the call; nothing can approve it.
	Block Decision = "block"
	// Confirm asks the user first.
	Confirm Decision = "confirm"
)

// Call is one tool call as the gate sees it.
type Call struct {
	Tool string
	// Capability owns the tool ("" when no usable capability does).
	Capability  string
	Annotations skillmd.Annotations
	Args        json.RawMessage
	// MCP marks a tool of an MCP server (see mcpDecision); ToolRule is the
	// user's rule for it (cerebellum.PolicyAsk when none).
	MCP      bool
	ToolRule cerebellum.ToolPolicy
	// Env is what is known about the computer and the person's standing
	// rules (the zero Env: nothing; Check uses DefaultEnv).
	Env Env
}

// Match is one pattern that matched a call.
type Match struct {
	Capability string `json:"capability"`
	Pattern    string `json:"pattern"`
	Reason     string `json:"reason"`
	// Block is true for a danger pattern.
	Block bool `json:"block,omitempty"`
}

// Verdict is the gate's answer for one call.
type Verdict struct {
	Decision Decision `json:"decision"`
	// Reasons say why, one per matched pattern of the deciding kind (danger
	// patterns for Block, confirm patterns and the destructive default for
	// Confirm), in pattern order, without repeats.
	Reasons []string `json:"reasons,omitempty"`
	// Matches are every pattern that matched, danger patterns first.
	Matches []Match `json:"matches,omitempty"`
	// Capability owns the tool.
	Capability string `json:"capability,omitempty"`
	// Line is the matched text: tool + " " + canonical arguments.
	Line string `json:"line"`
	// Destructive is true when the tool's destructive annotation asks for
	// confirmation (always, unless a danger pattern blocked the call).
	Destructive bool `json:"destructive,omitempty"`
	// AlwaysAsk is true when approving the call for the conversation
	// would cover more than the person saw (see ShellInfo.Dynamic and
	// ShellInfo.Always), or when it names a credential store or a path
	// outside the granted folders: it asks even when no pattern matched,
	// "approve for this conversation" never covers it, and no allowed
	// command pattern matches it.
	AlwaysAsk bool `json:"alwaysAsk,omitempty"`
	// Scope says, for people, what approving the call for the
	// conversation covers: "this exact command", "the same path: /a/b",
	// "every call of tool". Empty when nothing would be.
	Scope string `json:"scope,omitempty"`
	// Hosts are the network hosts the call would reach, as its arguments
	// show them: the URL arguments of a web tool, the addresses of the
	// network programs on a command line. Whether the conversation may
	// reach them is decided by the caller (the agent), which remembers
	// the hosts each conversation was allowed.
	Hosts []Host `json:"hosts,omitempty"`
	// Rule is the person's allowed-command pattern that lets the call
	// run without asking (Env.Commands).
	Rule string `json:"rule,omitempty"`
	tool string
	// scopeKey identifies Scope in Keys.
	scopeKey string
	// mcpAsk is the MCP default: a tool not marked read-only asks the
	// first time in a conversation.
	mcpAsk bool
}

// Tool is the tool the verdict is about.
func (v Verdict) Tool() string { return v.tool }

// Evaluate matches call against patterns. It is deterministic; it reads
// the file system only to resolve links in the paths a call names and to
// look for credential files beneath a folder a search reads.
// A pattern matches when it matches any of the call's Renderings; in a
// rendering that holds real line breaks, `.` also matches a line break, as
// it does for the escaped `\n` of the canonical line.
//
// It prepares patterns on every call; Rules.Evaluate (and Check, which
// keeps the rules of each snapshot) prepare them once.
func Evaluate(patterns []cerebellum.GatePattern, call Call) Verdict {
	return Compile(patterns).Evaluate(call)
}

// Evaluate matches call against the rules, as Evaluate does against their
// patterns, then applies the gate's own rules for what call.Env makes
// knowable (see doc.go).
func (r *Rules) Evaluate(call Call) Verdict {
	lines, decoded := renderings(call.Tool, call.Args)
	v := Verdict{Decision: Allow, Capability: call.Capability, Line: lines[0], tool: call.Tool}
	env := call.Env
	var shell *ShellInfo
	if call.Tool == ShellTool {
		if cmd, cwd, ok := shellCommand(decoded); ok {
			info := AnalyzeShellIn(cmd, env, startFolder(cwd, env))
			shell = &info
			lines = append(lines, commandRenderings(call.Args, info)...)
		}
	}
	v.Scope, v.scopeKey = scopeOf(call, shell, decoded)
	if call.MCP {
		// Approving a server's tool for the conversation covers the tool,
		// whatever its arguments.
		v.Scope, v.scopeKey = "every call of "+call.Tool+" (a tool of the MCP server "+call.Capability+")", ""
	}
	var danger, confirm []Match
	var idx [64]int
	folded := r.folded(lines)
	defer folded.release()
	for _, i := range r.candidates(call.Tool, idx[:0]) {
		p := r.patterns[i]
		if p.Pattern.Re == nil || !matchAny(p.Pattern, r.need[i], lines, folded) {
			continue
		}
		m := Match{Capability: p.Capability, Pattern: p.Pattern.Pattern, Reason: p.Pattern.Reason, Block: p.Block}
		if m.Reason == "" {
			m.Reason = fmt.Sprintf("matches %s pattern %q of %s", kindWord(p.Block), p.Pattern.Pattern, p.Capability)
		}
		if p.Block {
			danger = append(danger, m)
		} else {
			confirm = append(confirm, m)
		}
	}
	var always []string
	if shell != nil {
		if len(danger) == 0 {
			// The patterns say it better when they see it themselves.
			danger = shellDanger(env, *shell)
		}
		always = append(always, shell.Always...)
		always = append(always, shellPaths(env, *shell)...)
		v.Hosts = shell.Hosts
	} else {
		always = append(always, argPrivate(env, call.Tool, decoded)...)
		if !call.Annotations.ReadOnly {
			always = append(always, argGitWrites(decoded)...)
		}
		always = append(always, argOpens(env, decoded)...)
		v.Hosts = dedupeHosts(argHosts(decoded))
	}
	v.Matches = append(danger, confirm...)
	switch {
	case len(danger) > 0:
		v.Decision = Block
		v.Reasons = reasons(danger)
	case len(confirm) > 0:
		v.Decision = Confirm
		v.Reasons = reasons(confirm)
	}
	if v.Decision != Block && shell != nil && len(shell.Dynamic) > 0 {
		v.Decision = Confirm
		v.AlwaysAsk = true
		// One lead-in for all of them: the card reads "Why: what it runs is
		// decided only when it runs: it runs text as code with eval; it runs…".
		for i, r := range shell.Dynamic {
			if i == 0 {
				r = "what it runs is decided only when it runs: " + r
			}
			v.Reasons = append(v.Reasons, r)
		}
	}
	if v.Decision != Block && len(always) > 0 {
		v.Decision = Confirm
		v.AlwaysAsk = true
		for _, r := range always {
			v.Reasons = addReason(v.Reasons, r)
		}
	}
	if v.AlwaysAsk {
		v.Scope = ""
	}
	if call.MCP {
		return mcpDecision(v, call)
	}
	if v.Decision != Block && call.Annotations.Destructive {
		v.Decision = Confirm
		v.Destructive = true
		// A verb phrase like the patterns' reasons ("because it …").
		v.Reasons = append(v.Reasons, fmt.Sprintf("can change or delete things (%s is marked destructive)", call.Tool))
	}
	if shell != nil && v.Decision == Confirm && !v.AlwaysAsk && len(confirm) == 0 {
		if rule, ok := MatchCommandRules(env.Commands, *shell); ok {
			v.Decision, v.Destructive, v.Rule = Allow, false, rule
			v.Reasons = []string{fmt.Sprintf("matches your allowed command pattern %q", rule)}
		}
	}
	return v
}

// startFolder is the absolute folder a command starts in: its cwd when
// absolute (relative, from the first granted folder), else the shell's
// workdir setting, else the first granted folder (the shell's default),
// else "" (not known).
func startFolder(cwd string, env Env) string {
	cwd = strings.ReplaceAll(cwd, `\`, "/")
	if cwd == "" && strings.HasPrefix(env.Workdir, "/") {
		return path.Clean(env.Workdir)
	}
	switch {
	case strings.HasPrefix(cwd, "/"):
		return path.Clean(cwd)
	case cwd == "~" || strings.HasPrefix(cwd, "~/"):
		if env.Home != "" {
			return path.Join(env.Home, strings.TrimPrefix(cwd, "~"))
		}
		return ""
	case cwd != "":
		if len(env.Folders) > 0 {
			return path.Join(env.Folders[0], cwd)
		}
		return ""
	case len(env.Folders) > 0:
		return path.Clean(env.Folders[0])
	}
	return ""
}

// shellCommand reads a shell call's command line and working folder
// from its decoded arguments.
func shellCommand(decoded any) (command, cwd string, ok bool) {
	obj, isObj := decoded.(map[string]any)
	if !isObj {
		return "", "", false
	}
	command, ok = obj["command"].(string)
	cwd, _ = obj["cwd"].(string)
	return command, cwd, ok
}

// commandRenderings are the call again with its command replaced by each
// simple command it runs, quotes and escapes removed, so that a pattern
// written for `rm -rf /` sees it inside a pipeline, a subshell, `sh -c`
// or behind a wrapper such as sudo or nice, and also with the program's
// folder dropped (/bin/rm).
func commandRenderings(args json.RawMessage, info ShellInfo) []string {
	var obj map[string]any
	if json.Unmarshal(args, &obj) != nil {
		return nil
	}
	var out []string
	for _, c := range info.Commands {
		variants := []string{c.Line()}
		if base := path.Base(c.Program); base != c.Program {
			variants = append(variants, SimpleCommand{Program: base, Args: c.Args}.Line())
		}
		// As the shell will see it: ~, $HOME and the line's own variables
		// expanded (f=/proc/1/e; cat ${f}nviron reads /proc/1/environ).
		if exp := c.ExpandedLine(); exp != c.Line() && exp != "" {
			variants = append(variants, exp)
		}
		for _, line := range variants {
			obj["command"] = line
			b, err := json.Marshal(obj)
			if err != nil {
				continue
			}
			out = append(out, Renderings(ShellTool, b)...)
		}
	}
	return out
}

// scopeOf says what approving call for the conversation covers, for
// people (scope) and for Keys (key): for the shell, the same parsed
// command line (programs, arguments, variable assignments, redirections)
// in the same working folder; for tools with a path, the same path; for
// others, the tool. decoded is call.Args decoded (nil when they are not
// JSON).
func scopeOf(call Call, shell *ShellInfo, decoded any) (scope, key string) {
	if shell != nil {
		if shell.Key == "" {
			return "", ""
		}
		_, cwd, _ := shellCommand(decoded)
		scope = "this exact command"
		if cwd != "" {
			scope += " in " + cwd
		}
		return scope, "cmd:" + shell.Key + "\x00" + cwd
	}
	var parts, keys []string
	if p, ok := argPath(call.Args, decoded); ok {
		p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
		parts, keys = append(parts, "path: "+p), append(keys, "path:"+p)
	}
	// Where a tool writes is part of what was approved: extracting the
	// same archive over another folder, or replacing another archive, is
	// not the call the person saw.
	if obj, ok := decoded.(map[string]any); ok {
		for _, k := range scopeKeys {
			s, isString := obj[k.name].(string)
			if !isString || s == "" || k.name == "target" && (strings.Contains(s, "://") || strings.Contains(s, ":") && !strings.HasPrefix(s, "/")) {
				continue
			}
			s = path.Clean(strings.ReplaceAll(s, `\`, "/"))
			parts, keys = append(parts, k.label+": "+s), append(keys, k.name+":"+s)
		}
	}
	if len(parts) == 0 {
		return "every call of " + call.Tool, ""
	}
	return "the same " + strings.Join(parts, " and "), strings.Join(keys, "\x00")
}

// scopeKeys are the arguments besides path that name where a tool
// writes or what it opens, and how a card names them.
var scopeKeys = []struct{ name, label string }{
	{"dest", "destination"}, {"destination", "destination"}, {"output", "output"}, {"to", "destination"}, {"target", "target"},
}

// argPath is the "path" argument as encoding/json reads it into a field
// tagged `json:"path"` (keys match case-insensitively), from the decoded
// arguments when one key can be it, else by decoding them again.
func argPath(args json.RawMessage, decoded any) (string, bool) {
	if obj, ok := decoded.(map[string]any); ok {
		var val any
		n := 0
		for k, x := range obj {
			if strings.EqualFold(k, "path") {
				val = x
				n++
			}
		}
		switch s, isString := val.(string); {
		case n == 0:
			return "", false
		case n == 1 && isString:
			return s, true
		case n == 1 && val == nil:
			return "", false
		case n == 1:
			return "", false // not a string: decoding it fails
		}
		// Several spellings: which one wins depends on their order.
	}
	var a struct {
		Path *string `json:"path"`
	}
	if json.Unmarshal(args, &a) == nil && a.Path != nil {
		return *a.Path, true
	}
	return "", false
}

// matchAny reports whether p matches one of lines. A line with a real
// line break is matched in dot-all mode, with the form compiled once with
// the pattern (skillmd.Pattern.DotAll). A line without any of the text the
// pattern needs (need, see Rules) is skipped; folded holds the lines
// case-folded, filled as first needed.
func matchAny(p skillmd.Pattern, need *need, lines []string, folded *folded) bool {
	for i, l := range lines {
		if need != nil {
			if !need.mayMatchLine(folded, i) {
				continue
			}
		}
		re := p.Re
		if strings.ContainsAny(l, "\n\r") && p.DotAll != nil {
			re = p.DotAll
		}
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// Check evaluates a call of tool against the snapshot's patterns, looking
// up the tool's owner and annotations.
// The environment is DefaultEnv; CheckIn takes another.
func Check(snap *cerebellum.Snapshot, tool string, args json.RawMessage) Verdict {
	return CheckIn(snap, DefaultEnv(), tool, args)
}

// CheckIn is Check knowing env: the home folder, the granted folders,
// the workspace and the person's allowed commands and private paths.
func CheckIn(snap *cerebellum.Snapshot, env Env, tool string, args json.RawMessage) Verdict {
	c := Call{Tool: tool, Args: args, Env: env}
	if t, owner, ok := snap.Tool(tool); ok {
		c.Capability = owner.Name
		c.Annotations = t.Annotations
		if owner.Kind == cerebellum.KindMCP {
			c.MCP, c.ToolRule = true, snap.ToolPolicy(tool)
		}
	}
	rules, _ := snap.GateRules(func(p []cerebellum.GatePattern) any { return Compile(p) }).(*Rules)
	return rules.Evaluate(c)
}

func kindWord(block bool) string {
	if block {
		return "danger"
	}
	return "confirm"
}

func reasons(ms []Match) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range ms {
		if !seen[m.Reason] {
			seen[m.Reason] = true
			out = append(out, m.Reason)
		}
	}
	return out
}

// Keys identify what approving v for a conversation grants: the tool with
// each matched confirm pattern, and the tool's destructive default, each
// within v's scope (the same parsed command line for the shell, the same
// path for file tools). A blocked or allowed verdict has none, and
// neither has one that always asks.
func (v Verdict) Keys() []string {
	if v.Decision != Confirm || v.AlwaysAsk {
		return nil
	}
	var keys []string
	for _, m := range v.Matches {
		if !m.Block {
			keys = append(keys, v.tool+"\x1f"+m.Capability+"\x1f"+m.Pattern+"\x1f"+v.scopeKey)
		}
	}
	if v.Destructive {
		keys = append(keys, v.tool+"\x1f\x1fdestructive\x1f"+v.scopeKey)
	}
	if v.mcpAsk {
		keys = append(keys, v.tool+"\x1f\x1fmcp\x1f")
	}
	sort.Strings(keys)
	return compact(keys)
}

func compact(s []string) []string {
	var out []string
	for i, k := range s {
		if i == 0 || k != s[i-1] {
			out = append(out, k)
		}
	}
	return out
}

// Grants remembers what the user approved for one conversation. The zero
// value is empty and ready; it is not safe for concurrent use (one turn
// runs at a time per conversation).
type Grants struct {
	keys map[string]bool
}

// Add records that v was approved for the conversation.
func (g *Grants) Add(v Verdict) {
	for _, k := range v.Keys() {
		if g.keys == nil {
			g.keys = map[string]bool{}
		}
		g.keys[k] = true
	}
}

// Covers reports whether every key of a Confirm verdict was granted.
func (g *Grants) Covers(v Verdict) bool {
	keys := v.Keys()
	if len(keys) == 0 {
		return false
	}
	for _, k := range keys {
		if !g.keys[k] {
			return false
		}
	}
	return true
}

// Len is the number of granted keys.
func (g *Grants) Len() int { return len(g.keys) }
