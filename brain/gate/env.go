package gate

import (
	"os"
	"path/filepath"
)

// Env is what the gate knows about the computer and the person's standing
// rules when it reads a call. The gate stays pure but for resolving
// links in the paths a call names and looking for credential files in a
// folder a search reads (see realPath, heldCredential): whoever checks a call
// (the agent, `wrasse caps call`) fills it in.
type Env struct {
	// Home is the home folder of the process: what ~, $HOME, ${HOME:?}
	// and the like expand to, and where the credential stores are. Empty
	// leaves them unexpanded.
	Home string
	// Folders are the granted folders, absolute. nil means they are not
	// known and the folder rule is off; an empty, non-nil list means none
	// is granted, so every path is outside.
	Folders []string
	// Workspace is the workspace root, whose database, config.json, logs
	// and cache no call may touch ("" when not known).
	Workspace string
	// Workdir is where a shell command without a cwd starts (the shell's
	// workdir setting); "" means the first granted folder, as the shell
	// does.
	Workdir string
	// TempDirs are folders every command may use besides the granted ones
	// (the shell's sandbox lets commands write there too). Empty means
	// the system's temporary folder and /tmp.
	TempDirs []string
	// Commands are the allowed command patterns the person wrote (the
	// shell's allowedCommands setting): a shell call they match runs
	// without asking; see CommandRule.
	Commands []string
	// Private are paths the person added to the credential stores (the
	// shell's privatePaths setting); see CredentialStores.
	Private []string
}

// DefaultEnv is the Env when nothing else is known: the real home folder
// of the process, no folder rule, no rules of the person's.
func DefaultEnv() Env {
	home, _ := os.UserHomeDir()
	return Env{Home: home}
}

// tempDirs are the folders every command may use besides the granted ones.
func (e Env) tempDirs() []string {
	if len(e.TempDirs) > 0 {
		return e.TempDirs
	}
	out := []string{"/tmp", "/var/tmp"}
	if t := filepath.ToSlash(os.TempDir()); t != "" && t != "/tmp" {
		out = append(out, t)
	}
	return out
}
