package sandbox

import (
	"encoding/json"
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
}

// MovedSuffix is added to the name of a commondir file MoveCommondirs
// moves away: kept beside, for the person to look at (or to rename back,
// if they made it themselves).
const MovedSuffix = ".moved-by-wrasse"

// GitDirsFrom reads the watcher's git folders as startWatcher writes them.
func GitDirsFrom(r io.Reader) ([]string, error) {
	b, err := io.ReadAll(r)
	if err != nil || len(b) == 0 {
		return nil, err
	}
	return strings.Split(string(b), "\x00"), nil
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
