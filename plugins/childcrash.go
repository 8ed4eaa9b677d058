package plugins

import (
	"strings"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// What a plugin process that died leaves: the Go runtime's report, kept
// (bounded) from its stderr and summed up in one line for the call's
// error.

func (p *childProc) rawOutput() string { return p.out.Text() }

// logCrash logs a crash with the process's raw output (once).
func (p *childProc) logCrash(msg string, kv ...any) {
	if !p.reported.Swap(true) {
		kv = append(kv, "output", p.rawOutput())
	}
	p.log.Error(msg, kv...)
}

func (p *childProc) setGone(err error) {
	p.mu.Lock()
	p.goneErr = err
	p.mu.Unlock()
}

// crashReport says why the process ended: the Go runtime's fatal error or
// panic line, else how it exited.
func (p *childProc) crashReport(cause error) string {
	p.kill() // it may be alive but out of step
	p.awaitEnd()
	var parts []string
	lines := p.out.Lines()
	if s := childproc.Summary(lines); s != "" {
		parts = append(parts, s)
	}
	// The sandbox launcher says why it did not start the process (a
	// refused mount plan names the repository to fix).
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "wrasse sandbox:") {
			parts = append(parts, strings.TrimSpace(lines[i]))
			break
		}
	}
	p.mu.Lock()
	goneErr := p.goneErr
	p.mu.Unlock()
	exitErr := p.proc.ExitErr()
	if goneErr != nil {
		parts = append(parts, goneErr.Error())
	}
	if cause != nil && len(parts) == 0 {
		parts = append(parts, cause.Error())
	}
	status := "exited"
	if exitErr != nil {
		status = exitErr.Error()
	}
	if len(parts) == 0 {
		return "the plugin process ended (" + status + ")"
	}
	return strings.Join(parts, "; ") + " (" + status + ")"
}
