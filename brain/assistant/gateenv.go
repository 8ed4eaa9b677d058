package assistant

import (
	"fmt"
	"os"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// gateEnv is what the safety gate knows about this computer for a call
// now: the real home folder of the process (what ~ and $HOME expand to),
// the granted folders and the workspace.
func (a *App) gateEnv() gate.Env {
	home, _ := os.UserHomeDir()
	folders := a.Folders()
	if folders == nil {
		folders = []string{} // none granted: every path is outside
	}
	return gate.Env{Home: home, Folders: folders, Workspace: a.ws.Root}
}

// checkGateSetting validates the settings the gate reads, which their
// declared type (a list) cannot: each allowed command pattern must be one
// (gate.ParseCommandRule), each trusted host a host pattern.
func checkGateSetting(name, key, value string) error {
	var check func(string) error
	switch {
	case name == agent.ShellCapability && key == agent.AllowedCommandsSetting:
		check = func(s string) error { _, err := gate.ParseCommandRule(s); return err }
	case name == agent.WebCapability && key == agent.TrustedHostsSetting:
		check = gate.CheckHostPattern
	default:
		return nil
	}
	for _, item := range commalist.Split(value) {
		if err := check(item); err != nil {
			return hint.With(fmt.Errorf("%w: %s of %s: %w", cerebellum.ErrInvalidSetting, key, name, err),
				hint.Hint{Action: "See the settings of " + name, Command: []string{"caps", "settings", name}, Page: hint.PageCapability, Target: name})
		}
	}
	return nil
}
