package assistant

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// KeepModes puts back the modes Wrasse keeps on its own files: the
// workspace folder 0700, wrasse.db and config.json 0600, and while it
// serves, the runtime folder 0700 with the socket and launch token 0600.
// chmod is not governed by the sandbox, so a command it ran may have
// opened them to other users; Wrasse checks when it opens the workspace
// and after every tool call. Each repair is logged; the result lists them.
func (a *App) KeepModes() []workspace.Restored {
	kept := a.ws.KeptModes()
	a.serveMu.Lock()
	for _, s := range a.servers {
		kept = append(kept, s.kept...)
	}
	a.serveMu.Unlock()
	restored, err := workspace.RestoreModes(kept)
	for _, r := range restored {
		a.log.Warn("a file's mode that Wrasse keeps had been changed; it is put back", "path", r.Path,
			"was", fmt.Sprintf("%04o", r.Was), "now", fmt.Sprintf("%04o", r.Mode))
	}
	if err != nil {
		a.log.Error("cannot put back the mode of a file Wrasse keeps private", "error", err)
	}
	return restored
}

// afterToolCall runs after each tool call of a turn (agent.Options.
// AfterCall): the modes are checked, and what was put back is said in the
// call's result, which the person sees on its card.
func (a *App) afterToolCall(string) string { return modesNote(a.KeepModes()) }

// modesNote tells the person (and the model) what was put back.
func modesNote(restored []workspace.Restored) string {
	if len(restored) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n[Wrasse: during this call something changed the permissions of Wrasse's own files, which could let other users read them; they are put back: ")
	for i, r := range restored {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(r.String())
	}
	b.WriteString(". Do not change the permissions of Wrasse's files.]")
	return b.String()
}
