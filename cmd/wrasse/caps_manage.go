package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
)

// capsValidate checks a folder, a SKILL.md or an archive without
// installing it.
func capsValidate(ctx context.Context, app *assistant.App, c *call) error {
	rep, err := app.Validate(ctx, c.path(c.args[0]))
	if errors.Is(err, stage.ErrMultipleSkillMD) {
		// A collection: say what it holds and how to install it.
		if coll, serr := app.Survey(c.path(c.args[0])); serr == nil && len(coll.Skills) > 1 {
			return explainCollection(c.args[0], &manage.CollectionError{Input: filepath.Base(c.args[0]), Collection: coll})
		}
	}
	if err != nil {
		return err
	}
	if c.g.json {
		if err := writeJSON(c.io.out, rep); err != nil {
			return err
		}
		if !rep.OK() {
			return errInvalid
		}
		return nil
	}
	if rep.OK() {
		kind := string(rep.Kind)
		if len(rep.Tools) > 0 {
			kind += ": " + strings.Join(rep.Tools, ", ")
		}
		fmt.Fprintf(c.io.out, "%s is valid (%s).\n", rep.Name, kind)
		if len(rep.Permissions) > 0 {
			fmt.Fprintf(c.io.out, "Its plugin needs: %s (granted by the user when enabling).\n", strings.Join(rep.Permissions, ", "))
		}
	} else {
		fmt.Fprintf(c.io.err, "%s is not valid:\n", rep.Name)
		for _, e := range rep.Errors {
			fmt.Fprintln(c.io.err, indent(e))
		}
	}
	printWarnings(c.io.out, rep.Warnings)
	if !rep.OK() {
		return errInvalid
	}
	return nil
}

// printWarnings prints warnings, each marked once.
func printWarnings(w io.Writer, warnings []string) {
	for _, msg := range warnings {
		if !strings.Contains(msg, "warning:") {
			msg = "warning: " + msg
		}
		fmt.Fprintln(w, msg)
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

func capsInstall(ctx context.Context, app *assistant.App, c *call, replace bool) error {
	if isBundle(c.args[0]) {
		return capsInstallBundle(ctx, app, c, replace)
	}
	path := c.path(c.args[0])
	res, err := app.Install(ctx, path, replace)
	var coll *manage.CollectionError
	if errors.As(err, &coll) {
		return explainCollection(c.args[0], coll)
	}
	if err != nil {
		return explainInstall(ctx, app, c.args[0], path, replace, err)
	}
	if c.g.json {
		return writeJSON(c.io.out, res)
	}
	verb := "Installed"
	if res.Replaced {
		verb = "Replaced"
	}
	capability, _ := app.Capabilities().Get(res.Name)
	fmt.Fprintf(c.io.out, "%s %s (%s) in %s.\n", verb, res.Name, res.Report.Kind, filepath.Join(app.Workspace().Capabilities(), res.Folder))
	if capability != nil && capability.State == cerebellum.StateFailed {
		fmt.Fprintf(c.io.out, "It is listed as failed: %s\n", capability.Error)
	}
	if perms := res.Report.Permissions; len(perms) > 0 {
		fmt.Fprintf(c.io.out, "Its plugin needs %s: grant with `wrasse caps enable %s --grant %s`.\n",
			strings.Join(perms, ", "), res.Name, commalist.Join(perms))
	}
	printWarnings(c.io.out, res.Report.Warnings)
	return nil
}

// explainCollection refuses a collection installed as one capability,
// naming its skills and the two ways to install them.
func explainCollection(typed string, coll *manage.CollectionError) error {
	names := coll.Collection.Names()
	var example []string // skills expected to install, for the --only example
	for _, f := range coll.Collection.Skills {
		// A name --only cannot spell (a comma, blanks around it) makes no example.
		if f.Problem == nil && len(example) < 2 && len(commalist.Split(f.Name)) == 1 && commalist.Split(f.Name)[0] == f.Name {
			example = append(example, f.Name)
		}
	}
	if len(example) == 0 {
		example = names[:1]
	}
	err := fmt.Errorf("%w: %s holds %d skills: %s; install them with --all, or some with --only %s",
		cerebellum.ErrCollection, filepath.Base(typed), len(names), strings.Join(names, ", "), commalist.Join(example))
	return hint.With(err, hint.Hint{Action: "Install every skill in it", Command: []string{"caps", "install", typed, "--all"}, Page: hint.PageCapabilities})
}

// capsInstallCollection installs skills of a collection one by one and
// says how each went; it fails when any did.
func capsInstallCollection(ctx context.Context, app *assistant.App, c *call, all bool, onlyList string, replace bool) error {
	only := commalist.Split(onlyList)
	if all && len(only) > 0 {
		return fmt.Errorf("give --all or --only, not both")
	}
	if !all && len(only) == 0 {
		// An empty list must not fall through to "every skill".
		return fmt.Errorf("--only %q names no skill; give the skills' names separated by commas, or --all", onlyList)
	}
	items, err := app.InstallCollection(ctx, c.path(c.args[0]), only, replace)
	if err != nil {
		return err
	}
	if c.g.json {
		if err := writeJSON(c.io.out, items); err != nil {
			return err
		}
	}
	failed := 0
	for _, it := range items {
		if it.Err != nil {
			failed++
			if !c.g.json {
				fmt.Fprintf(c.io.err, "%s: not installed:\n%s\n", it.Name, indent(it.Err.Error()))
			}
			continue
		}
		if c.g.json {
			continue
		}
		res := it.Result
		verb := "Installed"
		if res.Replaced {
			verb = "Replaced"
		}
		fmt.Fprintf(c.io.out, "%s %s (%s) in %s.\n", verb, res.Name, res.Report.Kind, filepath.Join(app.Workspace().Capabilities(), res.Folder))
		printWarnings(c.io.out, res.Report.Warnings)
	}
	if failed > 0 {
		if !c.g.json {
			fmt.Fprintf(c.io.err, "%d of %d skills installed.\n", len(items)-failed, len(items))
		}
		return errInvalid
	}
	return nil
}

// explainInstall turns an install refused because a capability of that
// name is installed into an answer that says so and names --replace. The
// engine reports that clash inside an invalid-capability report, so it is
// recognised by validating again (only on this failure path) and looking
// the name up, never by reading the message.
func explainInstall(ctx context.Context, app *assistant.App, typed, path string, replace bool, err error) error {
	if replace || !errors.Is(err, cerebellum.ErrInvalidCapability) {
		return err
	}
	rep, verr := app.Validate(ctx, path)
	if verr != nil || rep.Name == "" {
		return err
	}
	installed, gerr := app.Capabilities().Get(rep.Name)
	if gerr != nil || installed.Source != cerebellum.SourceWorkspace {
		return err
	}
	// Other problems as well as the clash: show the whole report.
	if len(rep.Errors) > 1 {
		return hint.With(err, replaceHint(typed))
	}
	return hint.With(fmt.Errorf("%w: %s is already installed (folder %s); to install this one in its place, add --replace",
		cerebellum.ErrExists, rep.Name, installed.Folder), replaceHint(typed))
}

func replaceHint(path string) hint.Hint {
	return hint.Hint{Action: "Replace the installed capability", Command: []string{"caps", "install", path, "--replace"}, Page: hint.PageCapabilities}
}

func capsRemove(ctx context.Context, app *assistant.App, c *call) error {
	name := c.args[0]
	if err := app.Remove(ctx, name); err != nil {
		return explainReadOnly(app, name, err)
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"removed": name})
	}
	fmt.Fprintf(c.io.out, "Removed %s. It stays restorable for 7 days: wrasse caps restore %s\n", name, name)
	return nil
}

// explainReadOnly gives remove and disable of a capability that ships with
// Wrasse one answer. The engine says "cannot be removed (disable it
// instead)" for every built-in one, and "stays enabled" when a core one is
// disabled; for a core capability the first is wrong, so both become "it is
// always on".
func explainReadOnly(app *assistant.App, name string, err error) error {
	if !errors.Is(err, cerebellum.ErrReadOnly) {
		return err
	}
	c, gerr := app.Capabilities().Get(name)
	if gerr != nil {
		return err
	}
	if c.Core {
		return &reworded{fmt.Sprintf("%s is a core capability: Wrasse needs it, so it is always on and can be neither removed nor disabled", c.Name), err}
	}
	return hint.With(&reworded{fmt.Sprintf("%s ships with Wrasse, so it cannot be removed; it can be switched off", c.Name), err},
		hint.Hint{Action: "Switch it off", Command: []string{"caps", "disable", c.Name}, Page: hint.PageCapability, Target: c.Name})
}

// reworded says err in other words, still matching what err matches.
type reworded struct {
	msg string
	err error
}

func (e *reworded) Error() string { return e.msg }
func (e *reworded) Unwrap() error { return e.err }

func capsRestore(ctx context.Context, app *assistant.App, c *call) error {
	name := c.args[0]
	if err := app.Restore(ctx, name); err != nil {
		if errors.Is(err, cerebellum.ErrNotInTrash) {
			items, _ := app.Trash()
			var names []string
			for _, it := range items {
				names = append(names, it.Name)
			}
			if len(names) > 0 {
				return fmt.Errorf("%w; restorable now: %s", err, strings.Join(names, ", "))
			}
		}
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"restored": name})
	}
	fmt.Fprintf(c.io.out, "Restored %s.\n", name)
	return nil
}

// capsEnable enables c.args[0]; an MCP server, only with the command
// the person approved (shown: its ApprovalKey as approveLaunch showed it).
func capsEnable(app *assistant.App, c *call, grant, shown string) error {
	enable := app.Enable
	if shown != "" {
		enable = func(name string, grant []string) error { return app.EnableShown(name, grant, shown) }
	}
	if err := enable(c.args[0], commalist.Split(grant)); err != nil {
		return err
	}
	return printState(app, c)
}

func capsDisable(_ context.Context, app *assistant.App, c *call) error {
	if err := app.Disable(c.args[0]); err != nil {
		return explainReadOnly(app, c.args[0], err)
	}
	return printState(app, c)
}

// printState shows a capability's state after a change.
func printState(app *assistant.App, c *call) error {
	capability, err := app.Capabilities().Get(c.args[0])
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, rowOf(capability))
	}
	state := string(capability.State)
	if stateText(capability) == needsGrant {
		state = "on, waiting for its grants"
	}
	fmt.Fprintf(c.io.out, "%s is %s.", capability.Name, state)
	if len(capability.Granted) > 0 {
		fmt.Fprintf(c.io.out, " Granted: %s.", strings.Join(capability.Granted, ", "))
	}
	fmt.Fprintln(c.io.out)
	if missing := capability.MissingGrants(); len(missing) > 0 && capability.State == cerebellum.StateOK {
		fmt.Fprintf(c.io.out, "Its plugin still needs %s: none of its code runs until it has every permission it declares; grant with `wrasse caps enable %s --grant %s`.\n",
			commalist.Prose(missing), capability.Name, commalist.Join(missing))
	}
	if capability.State == cerebellum.StateFailed {
		fmt.Fprintln(c.io.out, "error: "+capability.Error)
	}
	return nil
}

// capsRevoke withdraws permissions and says which, and what is still
// granted.
func capsRevoke(app *assistant.App, c *call, grant string) error {
	name := c.args[0]
	gone, err := app.Revoke(name, commalist.Split(grant))
	if err != nil {
		return err
	}
	capability, err := app.Capabilities().Get(name)
	if err != nil {
		return err
	}
	if c.g.json {
		if gone == nil {
			gone = []string{}
		}
		return writeJSON(c.io.out, map[string]any{"name": capability.Name, "revoked": gone, "granted": orEmpty(capability.Granted)})
	}
	switch {
	case len(gone) > 0:
		fmt.Fprintf(c.io.out, "Revoked %s from %s.", strings.Join(gone, ", "), capability.Name)
	case grant != "":
		fmt.Fprintf(c.io.out, "%s was not granted %s; nothing revoked.", capability.Name, strings.Join(commalist.Split(grant), ", "))
	default:
		fmt.Fprintf(c.io.out, "%s had no permissions granted; nothing revoked.", capability.Name)
	}
	fmt.Fprintf(c.io.out, " Still granted: %s.\n", orNothing(capability.Granted))
	return nil
}

func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

func capsResync(ctx context.Context, app *assistant.App, c *call) error {
	d, err := app.Resync(ctx)
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, d)
	}
	if d.Empty() {
		fmt.Fprintln(c.io.out, "No changes on disk.")
		return nil
	}
	for _, part := range []struct {
		label string
		names []string
	}{{"Added", d.Added}, {"Changed", d.Changed}, {"Removed", d.Removed}} {
		if len(part.names) > 0 {
			fmt.Fprintf(c.io.out, "%s: %s\n", part.label, strings.Join(part.names, ", "))
		}
	}
	return nil
}
