package settings

import (
	"fmt"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// shellName is the capability the Shell page configures.
const shellName = "shell"

// maxShellTimeout is the longest a command may run: the shell plugin
// (brain/cerebellum/shell/plugin, maxTimeout) cuts any longer setting to
// it, so the page refuses one rather than store a value that never
// applies.
const maxShellTimeout = 10 * time.Minute

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
			{Key: "timeout", Label: "Timeout", Kind: kindDuration, Check: checkShellTimeout,
				Help: "How long a command may run when the assistant sets no limit, such as 60s or 5m (at most 10m)."},
			{Key: "network", Label: "Network", Kind: kindBool,
				Help: "Let commands reach the network (downloads, git fetch, package managers)."},
		}, show)
}

// checkShellTimeout allows 1s to 10m.
func checkShellTimeout(v string) error {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a duration: write e.g. 90s, 5m or 10m", v)
	case d < time.Second:
		return fmt.Errorf("%s is too short: a command needs at least 1s", shortDuration(v))
	case d > maxShellTimeout:
		return fmt.Errorf("%s is too long: a command may run at most %s", shortDuration(v), shortDuration(maxShellTimeout.String()))
	}
	return nil
}
