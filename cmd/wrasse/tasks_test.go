package main

import (
	"strings"
	"testing"
)

// The CLI's tasks commands: the same checks as the window, errors that
// say what is wrong and what to do, add --help with examples.
func TestTasksCLI(t *testing.T) {
	ws := t.TempDir()
	steps := []struct {
		name string
		args []string
		code int
		out  string // in stdout
		err  string // in stderr
	}{
		{"empty list", []string{"tasks"}, 0, "No scheduled tasks yet", ""},
		{"never fires", []string{"tasks", "add", "x", "--prompt", "p", "--schedule", "cron 0 0 30 2 *"}, 1, "", "the schedule never fires"},
		{"not a schedule", []string{"tasks", "add", "x", "--prompt", "p", "--schedule", "sometimes"}, 1, "", "not a schedule"},
		{"unknown capability", []string{"tasks", "add", "x", "--prompt", "p", "--schedule", "daily 8:00", "--caps", "shel"}, 1, "", `did you mean "shell"`},
		{"no prompt", []string{"tasks", "add", "x", "--schedule", "daily 8:00"}, 2, "", "needs --prompt"},
		{"no schedule", []string{"tasks", "add", "x", "--prompt", "p"}, 2, "", "needs --schedule"},
		{"bad approvals", []string{"tasks", "add", "x", "--prompt", "p", "--schedule", "daily 8:00", "--approvals", "maybe"}, 2, "", "wait or deny"},
		{"add", []string{"tasks", "add", "Morning", "--prompt", "Summarise.", "--schedule", "every weekday at 8am"}, 0, "Added t1 “Morning”: every weekday at 08:00; next run", "window is open"},
		{"add off", []string{"tasks", "add", "Later", "--prompt", "p", "--schedule", "in 2h", "--off", "--caps", "calc,web", "--approvals", "deny"}, 0, "(off)", ""},
		{"list", []string{"tasks", "list"}, 0, "every weekday at 08:00", ""},
		{"edit", []string{"tasks", "edit", "morning", "--schedule", "daily 07:15"}, 0, "Changed t1 “Morning”: every day at 07:15", ""},
		{"edit nothing", []string{"tasks", "edit", "morning"}, 2, "", "at least one of"},
		{"edit to bad", []string{"tasks", "edit", "t1", "--schedule", "every 5s"}, 1, "", "between a minute and 7 days"},
		{"misspelt", []string{"tasks", "disable", "mornin"}, 1, "", `did you mean "Morning"`},
		{"disable", []string{"tasks", "disable", "t1"}, 0, "Switched off t1", ""},
		{"history", []string{"tasks", "history", "Morning"}, 0, "No runs yet", ""},
		{"remove", []string{"tasks", "remove", "Later"}, 0, "Removed t2", ""},
		{"list json", []string{"tasks", "--json"}, 0, `"schedule": "daily 07:15"`, ""},
		{"help", []string{"tasks", "add", "--help"}, 0, "Examples:\n  wrasse tasks add", ""},
	}
	for _, s := range steps {
		code, out, errOut := cli(t, ws, s.args...)
		if code != s.code || !strings.Contains(out, s.out) || !strings.Contains(errOut, s.err) {
			t.Fatalf("%s: wrasse %s: exit %d (want %d)\nstdout: %s\nstderr: %s\nwant %q in stdout, %q in stderr",
				s.name, strings.Join(s.args, " "), code, s.code, out, errOut, s.out, s.err)
		}
	}
}

// Adding or enabling a task widens what the assistant may do unattended:
// sent to the window from outside, it waits for the person there.
func TestTasksWidens(t *testing.T) {
	cases := []struct {
		line string
		want bool
	}{
		{"tasks add x --prompt p --schedule daily", true},
		{"tasks add x --prompt p --schedule daily --off", false},
		{"tasks enable x", true},
		{"tasks edit x --prompt q", true},
		{"tasks run x", true},
		{"tasks disable x", false},
		{"tasks remove x", false},
		{"tasks list", false},
	}
	for _, c := range cases {
		p, err := parseLine(strings.Fields(c.line))
		if err != nil {
			t.Fatal(err)
		}
		call, err := p.call(stdio{})
		if err != nil {
			t.Fatal(err)
		}
		got := call.cmd.widens != nil && call.cmd.widens(call)
		if got != c.want {
			t.Errorf("%s: widens %v, want %v", c.line, got, c.want)
		}
	}
}
