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
// The keys are the settings brain/cerebellum/shell/SKILL.md declares.
func newShellPage(env *bridge.Env, show func(hint.Page, string)) *dependentPage {
	return newDependentPage(env, shellName,
		"How the assistant runs commands with shell_exec. Commands always run inside the folders on the Folders page.",
		[]fieldSpec{
			{Key: "workdir", Label: "Default working folder", Kind: kindFolder,
				Help: "Where a command starts when the assistant names no folder. Empty: the workspace. It must be inside an allowed folder."},
			{Key: "timeout", Label: "Timeout", Kind: kindText,
				Help: "How long a command may run when the assistant sets no limit, such as 60s or 5m (at most 10m)."},
			{Key: "network", Label: "Network", Kind: kindBool,
				Help: "Let commands reach the network (downloads, git fetch, package managers)."},
		}, show)
}
