package assistant

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// modeKeeper is what an App keeps private: the runtime folder it chose
// when it opened, the paths whose modes it keeps, and the repairs its
// watch made that no call's result has told yet.
type modeKeeper struct {
	// runtime is the runtime folder chosen at Open, before anything ran in
	// a sandbox, and kept for the App's life; runtimeErr says why there is
	// none to serve in.
	runtime    workspace.Runtime
	runtimeErr error
	// kept are the workspace's and the runtime folder's kept modes, fixed
	// at Open (a workspace root that is a link is kept by its target).
	kept []workspace.KeptMode

	// mu serialises repairs, so that one change is put back and told once.
	mu      sync.Mutex
	pending []workspace.Restored
	// watch puts modes back as soon as they change (Linux: inotify); nil
	// where there is none.
	watch *modeWatch
}

// startKeepingModes runs once in Open, before anything is sandboxed:
// it chooses the runtime folder, puts back what was changed while Wrasse
// was not running, and starts the watch that puts modes back at once.
func (a *App) startKeepingModes() {
	k := &a.keep
	k.runtime, k.runtimeErr = workspace.ChooseRuntime(os.Getenv)
	k.kept = a.ws.KeptModes()
	if k.runtimeErr == nil {
		k.kept = append(k.kept, k.runtime.KeptModes()...)
	} else {
		a.log.Warn("other wrasse commands cannot drive this one", "error", k.runtimeErr)
	}
	a.KeepModes()
	w, err := newModeWatch(a.log, a.restoreModes)
	if err != nil {
		a.log.Warn("modes Wrasse keeps are checked after each tool call only, not watched", "error", err)
		return
	}
	k.watch = w
	a.closers = append(a.closers, w)
	for _, m := range k.kept {
		w.add(m.Path)
	}
}

// watchRuntime watches the runtime folder, which Serve may just have
// created; the socket and token in it are watched through it.
func (a *App) watchRuntime() {
	if a.keep.watch != nil {
		a.keep.watch.add(a.keep.runtime.Dir)
	}
}

// KeepModes puts back the modes Wrasse keeps on its own files: the
// workspace folder 0700, wrasse.db and config.json 0600, the session and
// runtime folders 0700 and, while it serves, the socket and launch token
// 0600. chmod is not governed by the sandbox, so a command it ran may
// have opened them to other users. Wrasse checks when it opens the
// workspace and after every tool call, and watches them meanwhile where
// the system can (restoreModes). Each repair is logged; the result lists
// them, with those the watch made since the last call.
func (a *App) KeepModes() []workspace.Restored {
	a.restoreModes()
	a.keep.mu.Lock()
	defer a.keep.mu.Unlock()
	out := a.keep.pending
	a.keep.pending = nil
	return out
}

// restoreModes puts back what changed and logs it; the repairs wait in
// pending for the next KeepModes to tell.
func (a *App) restoreModes() {
	kept := append([]workspace.KeptMode(nil), a.keep.kept...)
	a.serveMu.Lock()
	for _, s := range a.servers {
		kept = append(kept, s.kept...)
	}
	a.serveMu.Unlock()
	a.keep.mu.Lock()
	defer a.keep.mu.Unlock()
	restored, err := workspace.RestoreModes(kept)
	for _, r := range restored {
		a.log.Warn("a file's mode that Wrasse keeps had been changed; it is put back", "path", r.Path,
			"was", fmt.Sprintf("%04o", r.Was), "now", fmt.Sprintf("%04o", r.Mode))
	}
	if err != nil {
		a.log.Error("cannot put back the mode of a file Wrasse keeps private", "error", err)
	}
	a.keep.pending = append(a.keep.pending, restored...)
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
