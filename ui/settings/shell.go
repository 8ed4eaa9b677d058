package settings

import (
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// shellName is the capability the Shell page configures.
const shellName = "shell"

// newShellPage is the Shell page: the shell capability's default working
// folder, command timeout and network access.
//
// The keys are the shell capability's setting names as documented for the
// engine's per-capability settings.
func newShellPage(env *bridge.Env, show func(hint.Page, string)) *dependentPage {
	return newDependentPage(env, shellName,
		"How the assistant runs commands with shell_exec. Commands always run inside the folders on the Folders page.",
		[]fieldSpec{
			{Key: "cwd", Label: "Default working folder", Kind: kindFolder,
				Help: "Where a command runs when the assistant names no folder (default: the workspace). It must be inside an allowed folder."},
			{Key: "timeout", Label: "Timeout (seconds)", Kind: kindSeconds,
				Help: "A command still running after this is stopped (1 to 600; default 60)."},
			{Key: "network", Label: "Network", Kind: kindBool,
				Help: "Let commands reach the network (downloads, git fetch, package managers)."},
		}, show)
}
