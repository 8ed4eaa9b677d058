package settings

import (
	"fmt"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
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
// folder, command timeout and network access, the commands the person
// allows without asking and their own private paths.
//
// The keys are the settings brain/cerebellum/shell/SKILL.md declares.
func newShellPage(env *bridge.Env, show func(hint.Page, string)) *dependentPage {
	return newDependentPage(env, shellName,
		"How the assistant runs commands with shell_exec. Commands always run inside the folders on the Folders page.",
		[]fieldSpec{
			{Key: agent.AllowedCommandsSetting, Label: "Allowed commands", Kind: kindList, Check: checkCommandPatterns,
				Help: "One pattern per line, such as git status, npm test or go test ./...: a command that starts with " +
					"those words runs without asking. Anything else asks, and so do shells, sudo, env, xargs, recursive deletes, " +
					"private files and folders outside the Folders page, whatever the patterns say."},
			{Key: agent.PrivatePathsSetting, Label: "Private paths", Kind: kindList,
				Help: "Files and folders every tool asks about each time, besides ~/.ssh, ~/.gnupg, ~/.aws, ~/.kube, " +
					"~/.netrc, .env files, browser profiles and password stores: paths, ~/paths or file names, one per line."},
			{Key: "workdir", Label: "Default working folder", Kind: kindFolder,
				Help: "Where a command starts when the assistant names no folder. Empty: the workspace. It must be inside an allowed folder."},
			{Key: "timeout", Label: "Timeout", Kind: kindDuration, Check: checkShellTimeout,
				Help: "How long a command may run when the assistant sets no limit, such as 60s or 5m (at most 10m)."},
			{Key: "network", Label: "Network", Kind: kindBool,
				Help: "Let commands reach the network (downloads, git fetch, package managers)."},
		}, show)
}

// checkCommandPatterns allows what the gate reads as allowed command
// patterns (gate.ParseCommandRule), one per line; none is allowed too.
func checkCommandPatterns(v string) error {
	for _, p := range splitList(v) {
		if _, err := gate.ParseCommandRule(p); err != nil {
			return err
		}
	}
	return nil
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
