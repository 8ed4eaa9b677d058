// Package shell is the plugin of the built-in shell capability: one tool,
// shell_exec, that runs a command line in a working folder inside the
// allowed roots, with a clean environment, a deadline and capped output.
//
// The source is interpreted by yaegi at run time, so it keeps to the plugin
// dialect: no goroutines, no package-level mutable state, stdlib and the SDK
// only.
package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

const (
	defaultTimeout = 60
	maxTimeout     = 600
	// outputCap bounds what the model reads: the first and last halves of
	// the combined output are kept.
	outputCap = 32 * 1024
	// waitDelay is how long Wait waits for pipes after the process is killed
	// (grandchildren may hold them open).
	waitDelay = 2 * time.Second
)

// config is what Init derives from the host's settings.
type config struct {
	env  *sdk.Env
	vars []string
	// network is the capability's network setting: whether commands may
	// open TCP connections (default true).
	network bool
	// defaultDir and timeout are the workdir and timeout settings: the folder
	// and the limit (seconds) used when a call gives none.
	defaultDir string
	timeout    int
}

// Init registers shell_exec.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	c := &config{env: env, vars: cleanEnv(env), network: !strings.EqualFold(strings.TrimSpace(env.Settings["network"]), "false"),
		defaultDir: strings.TrimSpace(env.Settings["workdir"]), timeout: timeoutSetting(env.Settings["timeout"])}
	if env.SandboxFn == nil && env.Log != nil {
		env.Log.Warn("shell commands run without the OS sandbox: the host offers none (started without its sandbox launcher)")
	}
	p := sdk.NewPlugin()
	p.Handle("shell_exec", c.exec)
	return p, nil
}

// timeoutSetting reads the timeout setting (a duration such as 2m0s) as
// whole seconds within 1..maxTimeout; unset or unreadable is the default.
func timeoutSetting(s string) int {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return defaultTimeout
	}
	secs := int((d + time.Second - 1) / time.Second)
	if secs > maxTimeout {
		secs = maxTimeout
	}
	return secs
}

// cleanEnv builds the minimal environment commands run with. It never copies
// the process environment, which may hold API keys.
func cleanEnv(env *sdk.Env) []string {
	s := env.Settings
	get := func(key, def string) string {
		if v := strings.TrimSpace(s[key]); v != "" {
			return v
		}
		return def
	}
	home := get("home", "")
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = h
		} else if len(env.Roots) > 0 {
			home = env.Roots[0]
		}
	}
	lang := get("locale", "C.UTF-8")
	if runtime.GOOS == "windows" {
		root := get("systemroot", `C:\Windows`)
		return []string{
			"PATH=" + get("path", root+`\system32;`+root+`;`+root+`\System32\Wbem;`+root+`\System32\WindowsPowerShell\v1.0`),
			"SystemRoot=" + root,
			"ComSpec=" + root + `\system32\cmd.exe`,
			"PATHEXT=.COM;.EXE;.BAT;.CMD",
			"USERPROFILE=" + home,
			"HOME=" + home,
			"LANG=" + lang,
			"TERM=dumb",
		}
	}
	path := "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
	if runtime.GOOS == "darwin" {
		path = "/opt/homebrew/bin:" + path
	}
	return []string{
		"PATH=" + get("path", path),
		"HOME=" + home,
		"LANG=" + lang,
		"LC_ALL=" + lang,
		"TERM=dumb",
		"NO_COLOR=1",
		"GIT_TERMINAL_PROMPT=0",
		"PAGER=cat",
		"GIT_PAGER=cat",
	}
}

// workdir resolves the working folder: cwd if given (relative paths start
// in the first granted folder), else the workdir setting, else the first
// granted folder, never the workspace, which holds Wrasse's own data. It
// must be an existing folder inside the roots. The command gets the real
// path (no links) of the folder checked: a process starts in a path, not a
// handle, and a link in the path as given could be flipped meanwhile.
func (c *config) workdir(cwd string) (string, error) {
	if cwd == "" {
		cwd = c.defaultDir
	}
	if cwd == "" {
		cwd = c.env.DefaultFolder()
	}
	if cwd == "" {
		return "", sdk.Errorf("no working folder: no folder is granted yet, and commands never run in Wrasse's own data folder; ask the user to grant a folder in Settings before running commands")
	}
	dir, info, err := c.env.RealPathArg(cwd)
	var te *sdk.ToolError
	switch {
	case errors.Is(err, sdk.ErrOutsideRoots) && c.env.DefaultFolder() != "":
		return "", sdk.Errorf("cwd %q is outside the folders you may use (%s); pass a folder inside them or leave cwd empty", cwd, strings.Join(c.env.Roots, ", "))
	case errors.As(err, &te):
		return "", err
	case err != nil || !info.IsDir():
		return "", sdk.Errorf("cwd %q is not an existing folder; create it first or pass another one", cwd)
	}
	return dir, nil
}

func (c *config) exec(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	command := req.String("command", "")
	if strings.TrimSpace(command) == "" {
		return nil, sdk.Errorf("command is empty: pass the command line to run, e.g. {\"command\": \"ls -la\"}")
	}
	dir, err := c.workdir(req.String("cwd", ""))
	if err != nil {
		return nil, err
	}
	secs := req.Int("timeout_seconds", c.timeout)
	if secs <= 0 {
		secs = c.timeout
	}
	if secs > maxTimeout {
		secs = maxTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, time.Duration(secs)*time.Second)
	defer cancel()

	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.CommandContext(runCtx, shellPath(c.env), "/C", command)
	} else {
		cmd = exec.CommandContext(runCtx, shellPath(c.env), "-c", command)
	}
	cmd.Dir = dir
	cmd.Env = c.vars
	out := &capped{limit: outputCap}
	cmd.Stdout = out
	cmd.Stderr = out
	// At the deadline the shell and everything it started (background
	// jobs, pipelines) are killed as one process group.
	sdk.Group(cmd)
	cmd.WaitDelay = waitDelay
	// The command runs confined by the OS: writes only beneath the granted
	// folders and the temporary folder, never Wrasse's own data.
	if err := c.env.Sandbox(cmd, c.network); err != nil && !errors.Is(err, sdk.ErrNoSandbox) {
		return nil, sdk.Errorf("could not set up the sandbox for the command: %v", err)
	}
	// Its own temporary folder goes when it ends.
	defer c.env.SandboxDone(cmd)

	runErr := cmd.Run()
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	var b strings.Builder
	switch {
	case runCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
		fmt.Fprintf(&b, "timed out after %ds: the command was killed. Use a larger timeout_seconds (max %d) or run it in the background with output to a file.\n", secs, maxTimeout)
	case ctx.Err() != nil:
		b.WriteString("cancelled: the command was killed.\n")
	case runErr != nil && cmd.ProcessState == nil:
		return nil, sdk.Errorf("could not start the shell: %v", runErr)
	default:
		// Other errors (e.g. output pipes held open by a background process
		// after the shell exited) are worth a note, not a failure.
		var exitErr *exec.ExitError
		if runErr != nil && !errors.As(runErr, &exitErr) {
			fmt.Fprintf(&b, "note: %v\n", runErr)
		}
		b.WriteString("exit code: " + strconv.Itoa(code) + "\n")
	}
	b.WriteString(out.String())
	return sdk.Text(b.String()), nil
}

// shellPath is the command interpreter: /bin/sh, or cmd.exe on Windows.
// Never another: the safety gate reads each command line as sh (dash)
// and bash read it, and asks where they differ; a shell of another
// grammar (zsh, fish) would run what the gate never read.
func shellPath(env *sdk.Env) string {
	if runtime.GOOS == "windows" {
		root := env.Settings["systemroot"]
		if root == "" {
			root = `C:\Windows`
		}
		return filepath.Join(root, "System32", "cmd.exe")
	}
	return "/bin/sh"
}

// capped keeps the head and the tail of what is written to it and counts
// the rest, so a command printing gigabytes costs little memory.
// capped keeps the head and tail of a command's output. Stdout and stderr
// share one, and under the interpreter exec may copy them on two
// goroutines (it cannot tell they are the same writer), hence the lock.
type capped struct {
	mu    sync.Mutex
	limit int
	head  []byte
	tail  []byte
	total int
}

func (w *capped) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	w.total += n
	half := w.limit / 2
	if room := half - len(w.head); room > 0 {
		if room > len(p) {
			room = len(p)
		}
		w.head = append(w.head, p[:room]...)
		p = p[room:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if len(p) >= half {
		w.tail = append(w.tail[:0], p[len(p)-half:]...)
		return n, nil
	}
	w.tail = append(w.tail, p...)
	if len(w.tail) > 2*half {
		// Compact now and then rather than on every write.
		w.tail = append([]byte(nil), w.tail[len(w.tail)-half:]...)
	}
	return n, nil
}

// String returns the kept output, with a note where bytes were dropped.
func (w *capped) String() string {
	half := w.limit / 2
	tail := w.tail
	if len(tail) > half {
		tail = tail[len(tail)-half:]
	}
	if w.total == 0 {
		return "(no output)\n"
	}
	kept := len(w.head) + len(tail)
	if kept >= w.total {
		return string(w.head) + string(tail)
	}
	dropped := w.total - kept
	return fmt.Sprintf("%s\n[... %d bytes of output omitted; %d bytes in total. Narrow the command (grep, head, tail) or redirect to a file and read parts of it ...]\n%s",
		w.head, dropped, w.total, tail)
}
