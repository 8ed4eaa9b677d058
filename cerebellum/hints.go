package cerebellum

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Hints the engine attaches to errors a person can fix. The text of an
// error says what is wrong and what to do in words; the hint carries the
// command (for the CLI) and the page (for the window). Callers read them
// with hint.Of, never from the text.

// MissingGrants lists the permissions c's plugin declares that the user has
// not granted, sorted; none for capabilities that ship with Wrasse, which
// need no grants.
func (c *Capability) MissingGrants() []string {
	if c.Manifest == nil || c.Source == SourceBuiltin || c.Kind != KindPlugin {
		return nil
	}
	granted := map[string]bool{}
	for _, g := range c.Granted {
		granted[g] = true
	}
	var out []string
	for _, p := range c.Manifest.Permissions.Names() {
		if !granted[p] {
			out = append(out, p)
		}
	}
	return sortedCopy(out)
}

// notGranted is the error for using c while its plugin lacks grants, nil
// when it has them all. Nothing is loaded or marked failed: the plugin's
// code must not run before the grants, and the grants alone fix it.
func notGranted(c *Capability) error {
	missing := c.MissingGrants()
	if len(missing) == 0 {
		return nil
	}
	err := fmt.Errorf("%w: %s's plugin needs the %s %s, which the user has not granted, and none of its code runs until all are granted; ask the user to grant %s on %s's page in Settings → Capabilities",
		ErrNotGranted, c.Name, commalist.Prose(missing), plural(len(missing), "permission", "permissions"),
		plural(len(missing), "it", "them"), c.Name)
	return hint.With(err, grantHint(c.Name, missing))
}

func enableHint(name string) hint.Hint {
	return hint.Hint{Action: "Enable " + name, Command: []string{"caps", "enable", name}, Page: hint.PageCapabilities, Target: name}
}

func grantHint(name string, perms []string) hint.Hint {
	return hint.Hint{Action: fmt.Sprintf("Grant %s to %s", commalist.Prose(perms), name),
		Command: []string{"caps", "enable", name, "--grant", strings.Join(perms, ",")}, Page: hint.PageCapability, Target: name}
}

func resyncHint() hint.Hint {
	return hint.Hint{Action: "Apply the changes on disk", Command: []string{"caps", "resync"}, Page: hint.PageCapabilities}
}

// unusable explains why c's tools cannot run, with the fix when there is
// one: enable it, or grant what its plugin is missing.
func unusable(c *Capability, err error) error {
	switch {
	case c.State == StateDisabled:
		return hint.With(err, enableHint(c.Name))
	case len(c.MissingGrants()) > 0:
		return hint.With(err, grantHint(c.Name, c.MissingGrants()))
	}
	return err
}

// CoreError is the one answer to removing or disabling a core capability.
func CoreError(name string) error {
	return fmt.Errorf("%w: %s is a core capability: Wrasse needs it, so it is always on and can be neither removed nor disabled", ErrReadOnly, name)
}
