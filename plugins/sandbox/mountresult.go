package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// MountResult is what MountNamespace did.
type MountResult struct {
	// OK: every mount was made. Else Why says what was refused.
	OK  bool
	Why string
	// Refused, when not "", says why the command must not start at all:
	// a repository's settings name what the launcher could not keep from
	// the command within a start's bounds (a command wrote them).
	Refused string
	// Notes are, for the command's output, what the launcher changed in
	// the person's files (a planted commondir moved away) or could not
	// cover (the search for repositories cut short).
	Notes []string
	// GitDirs are the main git folders of the protected repositories,
	// where a commondir must not appear (MoveCommondirs).
	GitDirs []string
	// Grants are the writable grants walked for repositories, and Repos
	// the repositories there at the start (in or beneath them): one the
	// command makes is looked at when it ends (DisarmNewRepos). Cut
	// and Started are WatchList's.
	Grants, Repos, Cut []string
	Started            int64
	NoSequencer        []string
}

// WatchList is what the watcher is handed: the main git folders to keep
// free of a commondir, and the writable grants with the repositories
// there at the start, to find those the command made.
type WatchList struct {
	GitDirs []string `json:"gitDirs,omitempty"`
	Grants  []string `json:"grants,omitempty"`
	Repos   []string `json:"repos,omitempty"`
	// Cut are the grants whose walk at the start stopped at its bound:
	// a repository found there at the end may be the person's, which
	// that walk did not reach.
	Cut []string `json:"cut,omitempty"`
	// Started is when the plan was made (Unix nanoseconds): a git folder
	// the file system says was made before it is no command's.
	Started int64 `json:"started,omitempty"`
	// NoSequencer are main git folders where a single cherry-pick or
	// revert stopped with no sequencer folder: one that appears there is
	// the command's, and is moved away.
	NoSequencer []string `json:"noSequencer,omitempty"`
}

// MovedSuffix is added to the name of a commondir file MoveCommondirs
// moves away: kept beside, for the person to look at (or to rename back,
// if they made it themselves).
const MovedSuffix = ".moved-by-wrasse"

// WatchListFrom reads the watcher's list as startWatcher writes it.
func WatchListFrom(r io.Reader) (WatchList, error) {
	var w WatchList
	b, err := io.ReadAll(r)
	if err != nil || len(b) == 0 {
		return w, err
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return w, fmt.Errorf("the watcher's list: %w", err)
	}
	return w, nil
}

// MountReport is what the launcher of a NamespaceCommand made of the
// program's mount namespace, handed to the program in its environment
// (TakeMountReport): the program confines itself, and it says what holds.
type MountReport struct {
	// Asked: the program was meant to run in a mount namespace of its own
	// (a NamespaceCommand on Linux); NS: it started in one. OK: every
	// mount was made; else Why says what was refused.
	Asked bool   `json:"asked,omitempty"`
	NS    bool   `json:"ns,omitempty"`
	OK    bool   `json:"ok,omitempty"`
	Why   string `json:"why,omitempty"`
	// Notes are MountResult's: what the launcher changed in the person's
	// files or could not cover.
	Notes []string `json:"notes,omitempty"`
}

// envMounts carries the MountReport from the launcher to the program.
const envMounts = "WRASSE_SANDBOX_MOUNTS"

// TakeMountReport reads the launcher's MountReport from this process's
// environment and removes it there, so that the programs this process
// starts are not told; false when there is none (the process was not
// started by NamespaceCommand, or the system has no mount namespaces).
func TakeMountReport() (MountReport, bool) {
	v, ok := os.LookupEnv(envMounts)
	if !ok {
		return MountReport{}, false
	}
	_ = os.Unsetenv(envMounts)
	var r MountReport
	if err := json.Unmarshal([]byte(v), &r); err != nil {
		return MountReport{Asked: true, Why: "the launcher's report cannot be read: " + err.Error()}, true
	}
	return r, true
}

// Apply puts what r says into st (what Restrict or Confine returned).
func (r MountReport) Apply(st *Status) {
	st.MountNSAsked = r.Asked
	st.MountNS, st.MountNSWhy = r.OK, r.Why
}

// withMountReport is env (this launcher's, as LauncherEnv made it) with
// r in place of any report it held.
func withMountReport(env []string, r MountReport) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, envMounts+"=") {
			out = append(out, kv)
		}
	}
	enc, _ := json.Marshal(r) // strings and booleans always encode
	return append(out, envMounts+"="+string(enc))
}
