package cerebellum

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// RefusedPrefix begins a LaunchFiles entry that says, after it, why no
// start of the server can be checked (a wrapper whose command cannot be
// told, a named pipe among its code): the MCP client refuses the start
// with that reason.
const RefusedPrefix = "refused:"

// wrapperSyntax is how a wrapper's own arguments end and its command
// begins: the flags that take a value (as the next argument or after
// '='), those that take none, and how many positional arguments of its
// own come before the command (timeout's duration, taskset's mask,
// chrt's priority). A flag in neither list may take a value, so the
// command cannot be told and the start is refused (guessing is how
// `env -u NAME node DIR` ran DIR unchecked, a39).
type wrapperSyntax struct {
	value, bare []string
	positional  int
	// assignments: NAME=value arguments before the command (env).
	assignments bool
}

// wrapperSyntaxes are those of wrappers (GNU coreutils, util-linux,
// dotenv-cli, macOS caffeinate).
var wrapperSyntaxes = map[string]wrapperSyntax{
	"env": {value: []string{"-u", "--unset", "-C", "--chdir", "-a", "--argv0"},
		bare: []string{"-", "-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "--ignore-signal",
			"--default-signal", "--block-signal", "--list-signal-handling"}, assignments: true},
	"timeout": {value: []string{"-s", "--signal", "-k", "--kill-after"},
		bare: []string{"--preserve-status", "--foreground", "-v", "--verbose"}, positional: 1},
	"nice":       {value: []string{"-n", "--adjustment"}},
	"nohup":      {},
	"stdbuf":     {value: []string{"-i", "--input", "-o", "--output", "-e", "--error"}},
	"dotenv":     {value: []string{"-e", "-v", "-p", "-c"}, bare: []string{"--debug", "--quiet", "-o", "--override"}},
	"exec":       {value: []string{"-a"}, bare: []string{"-c", "-l"}},
	"time":       {value: []string{"-f", "--format", "-o", "--output"}, bare: []string{"-p", "--portability", "-a", "--append", "-v", "--verbose", "-q", "--quiet"}},
	"ionice":     {value: []string{"-c", "--class", "-n", "--classdata"}, bare: []string{"-t", "--ignore"}},
	"setsid":     {bare: []string{"-c", "--ctty", "-f", "--fork", "-w", "--wait"}},
	"chrt":       {value: []string{"-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"}, bare: []string{"-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-f", "--fifo", "-i", "--idle", "-o", "--other", "-r", "--rr", "-R", "--reset-on-fork", "-v", "--verbose"}, positional: 1},
	"taskset":    {bare: []string{"-a", "--all-tasks", "-c", "--cpu-list"}, positional: 1},
	"caffeinate": {value: []string{"-t", "-w"}, bare: []string{"-d", "-i", "-m", "-s", "-u"}},
}

// unwrapped is the command a chain of wrappers runs.
type unwrapped struct {
	command string
	args    []string
	// programs are the commands of the chain after the first, the
	// wrapped one last.
	programs []string
	// dirs are working folders a wrapper moves to (env -C DIR), absolute
	// when cwd was given.
	dirs []string
	// files are files a wrapper reads as settings of the command's
	// environment (dotenv -e FILE may set NODE_OPTIONS).
	files []string
	// settings are the VAR=value a wrapper sets (env CARGO_TARGET_DIR=…).
	settings []string
}

// unwrap looks through the wrappers in front of command (env VAR=x
// timeout -s KILL 60 node …): what runs after their own flags, settings
// and positional arguments. An error when a wrapper's command cannot be
// told (a flag it does not know, env -S's split string, a pid given
// instead of a command) says so: no start of such a block is checked.
func unwrap(command string, args []string, cwd string) (unwrapped, error) {
	u := unwrapped{command: command, args: args}
	for {
		name := strings.TrimSuffix(filepath.Base(u.command), ".exe")
		syn, ok := wrapperSyntaxes[name]
		if !ok {
			return u, nil
		}
		fail := func(why string) (unwrapped, error) {
			return u, fmt.Errorf("its command line starts with %s, and %s, so what it runs cannot be told; write the command the wrapper runs as the block's command (settings in env:, a working folder in cwd:) and enable it again", name, why)
		}
		i, positional := 0, 0
		for i < len(u.args) {
			a := u.args[i]
			if a == "--" {
				i++
				break
			}
			if a == "-" && slices.Contains(syn.bare, "-") { // env -: env -i
				i++
				continue
			}
			if strings.HasPrefix(a, "-") && a != "-" {
				flag, value, hasValue := strings.Cut(a, "=")
				switch {
				case slices.Contains(syn.value, flag):
					if !hasValue {
						if i+1 >= len(u.args) {
							return fail(fmt.Sprintf("its flag %s has no value", flag))
						}
						i++
						value = u.args[i]
					}
					if (name == "env" && (flag == "-C" || flag == "--chdir")) && value != "" {
						d := value
						if !filepath.IsAbs(d) && cwd != "" {
							d = filepath.Join(cwd, d)
						}
						u.dirs = append(u.dirs, d)
						cwd = d
					}
					if name == "dotenv" && flag == "-e" {
						u.files = append(u.files, value)
					}
					if name == "dotenv" && flag == "-v" && strings.Contains(value, "=") {
						u.settings = append(u.settings, value) // dotenv -v NAME=VALUE
					}
				case slices.Contains(syn.bare, flag) && (!hasValue || strings.HasPrefix(flag, "--")):
				case len(a) > 2 && a[1] != '-' && slices.Contains(syn.value, a[:2]):
					// -uNAME, -n10: the value joined to a short flag.
					if name == "env" && a[:2] == "-C" {
						d := a[2:]
						if !filepath.IsAbs(d) && cwd != "" {
							d = filepath.Join(cwd, d)
						}
						u.dirs = append(u.dirs, d)
						cwd = d
					}
				case name == "nice" && strings.Trim(a[1:], "0123456789") == "" || name == "nice" && strings.HasPrefix(a, "--") && strings.Trim(a[2:], "0123456789") == "":
					// nice -10: the old form of -n 10.
				default:
					return fail(fmt.Sprintf("its flag %q is not one it is known to take", a))
				}
				i++
				continue
			}
			if syn.assignments && strings.Contains(a, "=") {
				u.settings = append(u.settings, a)
				i++
				continue
			}
			if positional < syn.positional {
				positional++
				i++
				continue
			}
			break
		}
		if positional < syn.positional || i >= len(u.args) {
			return fail("no command follows its own arguments")
		}
		u.command, u.args = u.args[i], u.args[i+1:]
		u.programs = append(u.programs, u.command)
	}
}

// withSettings is env with the VAR=value settings of the wrappers in
// front of command (env NODE_OPTIONS=… npx, dotenv -v PYTHONPATH=…)
// over it: what the wrapped command runs with, whose code variables and
// PATH count as the block's own do (a41).
func withSettings(env map[string]string, command string, args []string, cwd string) map[string]string {
	u, _ := unwrap(command, args, cwd)
	if len(u.settings) == 0 {
		return env
	}
	out := make(map[string]string, len(env)+len(u.settings))
	for k, v := range env {
		out[k] = v
	}
	for _, kv := range u.settings {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			out[k] = v
		}
	}
	return out
}
