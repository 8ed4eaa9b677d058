package assistant

import (
	"fmt"
	"unicode/utf8"
)

// Peer is the process at the other end of an instance connection, as the
// kernel names it, and the program that started it.
type Peer struct {
	// Known is true when the kernel said who connected (Linux and macOS);
	// elsewhere the launch token is the only check.
	Known bool
	PID   int
	UID   int
	// Name is the process's short name; Exe its executable and Args its
	// command line, where the system shows them (Linux's /proc).
	Name string
	Exe  string
	Args []string
	// Parent is the process that started it, when known.
	Parent *Peer
}

// maxAncestry bounds the walk up a process tree.
const maxAncestry = 256

// String describes the process in one line for a person: its command line
// (or name), its pid and its executable, each with what would not show as
// itself escaped (Visible, QuoteArg): a program chooses all three.
func (p Peer) String() string {
	if !p.Known && p.PID == 0 {
		return "an unknown program (this system does not say which)"
	}
	what := Visible(p.Name)
	if len(p.Args) > 0 {
		what = shortLine(p.Args)
	}
	if what == "" {
		what = "a program"
	}
	s := fmt.Sprintf("%s (pid %d", what, p.PID)
	if p.Exe != "" && (len(p.Args) == 0 || p.Args[0] != p.Exe) {
		s += ", " + Visible(p.Exe)
	}
	return s + ")"
}

// shortLine is a command line for a person, shell-quoted and escaped
// (CommandLine), cut to a readable length on a character's boundary.
func shortLine(args []string) string {
	line := CommandLine(args)
	const max = 300
	if len(line) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "…"
	}
	return line
}
