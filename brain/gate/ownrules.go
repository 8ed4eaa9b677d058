package gate

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// The gate's own rules: what capability patterns cannot see because it
// depends on the computer (the home folder, the granted folders, the
// workspace) or on the shell's reading of a line (globs, variables set
// earlier on it). Patterns are text; these read paths.

// ruleCapability names the gate itself as the source of a match.
const ruleCapability = "gate"

// shellDanger are the blocks the gate adds to a command line's: a
// recursive delete of the root folder, the home folder or a folder
// holding it; Wrasse's database or settings, also through a glob; and
// another process's folder under /proc.
func shellDanger(env Env, info ShellInfo) []Match {
	var out []Match
	add := func(pattern, reason string) {
		for _, m := range out {
			if m.Reason == reason {
				return
			}
		}
		out = append(out, Match{Capability: ruleCapability, Pattern: pattern, Reason: reason, Block: true})
	}
	for _, d := range info.Deletes {
		if env.homeDeleteHit(d) {
			add("home-delete", "recursive delete of the root folder, the home folder or a folder that holds it ("+d.Word+")")
		}
	}
	for _, u := range info.Paths {
		if hit := env.protectedHit(u); hit != "" {
			add("protected", "touches Wrasse's own database or settings ("+tidy(env, hit)+"), where the saved API keys live")
		}
		if procHit(u) {
			add("proc", "reads another process's files under /proc ("+u.Word+"), such as its environment, where API keys and tokens live")
		}
	}
	return out
}

// shellPaths are the reasons a command line asks every time for the
// paths it names: a credential store, or a path outside the granted
// folders.
func shellPaths(env Env, info ShellInfo) []string {
	var out, private, outside, unknown []string
	seen := map[string]bool{}
	for _, u := range append(append([]PathUse(nil), info.Paths...), info.Deletes...) {
		if hit := env.privateHit(u); hit != "" && !seen["p"+hit] {
			seen["p"+hit] = true
			private = append(private, tidy(env, hit))
		}
		switch {
		case u.Unknown:
			if !seen["u"+u.Word] {
				seen["u"+u.Word] = true
				unknown = append(unknown, OneLineVisible(u.Word, 80))
			}
		case env.outside(u) && !seen["o"+u.Path]:
			seen["o"+u.Path] = true
			outside = append(outside, OneLineVisible(u.Word, 80))
		}
	}
	if len(private) > 0 {
		out = append(out, "it names "+list(private)+", where keys, tokens or passwords are kept")
	}
	if len(outside) > 0 {
		out = append(out, "it uses "+list(outside)+", outside the folders you granted")
	}
	if len(unknown) > 0 {
		out = append(out, "it uses "+list(unknown)+", which is known only when it runs, so it may be outside the folders you granted or where keys are kept")
	}
	return out
}

// pathKeys are argument names whose values are paths a tool reads or
// writes.
var pathKeys = setOf("path", "paths", "dest", "destination", "src", "source", "sources", "target", "file", "files", "folder",
	"dir", "directory", "cwd", "from", "to", "input", "output")

// argPrivate are the reasons a tool's call asks every time because a
// path argument names a credential store (fs_read ~/.ssh/id_rsa,
// archive_create of ~/.aws), or, for a search that reads file contents
// beneath it (fs_grep, any *grep tool), a folder holding one.
func argPrivate(env Env, tool string, decoded any) []string {
	obj, ok := decoded.(map[string]any)
	if !ok {
		return nil
	}
	grep := strings.Contains(strings.ToLower(tool), "grep")
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var hits []string
	seen := map[string]bool{}
	for _, k := range keys {
		if !pathKeys[strings.ToLower(k)] {
			continue
		}
		var vals []string
		switch v := obj[k].(type) {
		case string:
			vals = []string{v}
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					vals = append(vals, s)
				}
			}
		}
		for _, s := range vals {
			u := PathUse{Word: s, Path: argAbs(env, s), Glob: hasGlob(s), Recursive: grep && strings.EqualFold(k, "path")}
			if hit := env.privateHit(u); hit != "" && !seen[hit] {
				seen[hit] = true
				hits = append(hits, tidy(env, hit))
			}
		}
	}
	if len(hits) == 0 {
		return nil
	}
	return []string{"it names " + list(hits) + ", where keys, tokens or passwords are kept"}
}

// argAbs is a tool's path argument as the file tools read it: ~ is the
// home folder; a relative path stays relative (its base is the tool's).
func argAbs(env Env, p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if env.Home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return path.Join(env.Home, strings.TrimPrefix(p, "~"))
	}
	if strings.HasPrefix(p, "/") {
		// /proc/self/root/… is /…; /proc/self/cwd/… is where Wrasse
		// runs, which the tools do not use as a base: left as written.
		if rs, unknown := resolveProc(p, nil, true, 0); !unknown && len(rs) == 1 {
			return rs[0]
		}
		return path.Clean(p)
	}
	return p
}

// tidy shows a path with the home folder as ~.
func tidy(env Env, p string) string {
	h := strings.TrimSuffix(env.Home, "/")
	if h != "" && (p == h || strings.HasPrefix(p, h+"/")) {
		return "~" + strings.TrimPrefix(p, h)
	}
	return p
}

// list names up to three items and how many more.
func list(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:3], ", "), len(items)-3)
}
