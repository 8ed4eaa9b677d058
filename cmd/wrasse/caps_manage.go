package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
)

// capsValidate checks a folder, a SKILL.md or an archive without installing it.
func capsValidate(ctx context.Context, a *app, path string, asJSON bool, io stdio) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	var rep *cerebellum.Report
	if info.IsDir() {
		abs, _ := filepath.Abs(path)
		rep = a.reg.Validate(ctx, os.DirFS(abs), filepath.Base(abs), abs, cerebellum.ValidateOptions{})
	} else {
		// Stage archives and lone files exactly as an install would, in a
		// throw-away folder outside the workspace.
		tmp, err := os.MkdirTemp("", "wrasse-validate-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		st, err := stage.Stage(path, tmp, stage.DefaultLimits())
		if err != nil {
			return err
		}
		folder := filepath.Base(st.Dir)
		if data, err := os.ReadFile(filepath.Join(st.Dir, "SKILL.md")); err == nil {
			if m, _, err := cerebellum.ValidateManifest(data, filepath.Base(path)); err == nil {
				folder = m.Name
			}
		}
		rep = a.reg.Validate(ctx, os.DirFS(st.Dir), folder, st.Dir, cerebellum.ValidateOptions{})
	}
	if asJSON {
		if err := writeJSON(io.out, rep); err != nil {
			return err
		}
		if !rep.OK() {
			return errSilent
		}
		return nil
	}
	if rep.OK() {
		kind := string(rep.Kind)
		if len(rep.Tools) > 0 {
			kind += ": " + strings.Join(rep.Tools, ", ")
		}
		fmt.Fprintf(io.out, "%s is valid (%s).\n", rep.Name, kind)
		if len(rep.Permissions) > 0 {
			fmt.Fprintf(io.out, "Its plugin needs: %s (granted by the user when enabling).\n", strings.Join(rep.Permissions, ", "))
		}
	} else {
		fmt.Fprintf(io.err, "%s is not valid:\n", rep.Name)
		for _, e := range rep.Errors {
			fmt.Fprintln(io.err, indent(e))
		}
	}
	for _, w := range rep.Warnings {
		fmt.Fprintln(io.out, "warning: "+w)
	}
	if !rep.OK() {
		return errSilent
	}
	return nil
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

func capsInstall(ctx context.Context, a *app, path string, replace, asJSON bool, io stdio) error {
	res, err := a.reg.Install(ctx, path, cerebellum.InstallOptions{Replace: replace})
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(io.out, res)
	}
	verb := "Installed"
	if res.Replaced {
		verb = "Replaced"
	}
	c, _ := a.reg.Get(res.Name)
	fmt.Fprintf(io.out, "%s %s (%s) in %s.\n", verb, res.Name, res.Report.Kind, filepath.Join(a.ws.Capabilities(), res.Folder))
	if c != nil && c.State == cerebellum.StateFailed {
		fmt.Fprintf(io.out, "It is listed as failed: %s\n", c.Error)
	}
	if perms := res.Report.Permissions; len(perms) > 0 {
		fmt.Fprintf(io.out, "Its plugin needs %s: grant with `wrasse caps enable %s --grant %s`.\n",
			strings.Join(perms, ", "), res.Name, strings.Join(perms, ","))
	}
	for _, w := range res.Report.Warnings {
		fmt.Fprintln(io.out, "warning: "+w)
	}
	return nil
}

func capsRemove(ctx context.Context, a *app, name string, asJSON bool, io stdio) error {
	if err := a.reg.Remove(ctx, name); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(io.out, map[string]string{"removed": name})
	}
	fmt.Fprintf(io.out, "Removed %s. It stays restorable for 7 days: wrasse caps restore %s\n", name, name)
	return nil
}

func capsRestore(ctx context.Context, a *app, name string, asJSON bool, io stdio) error {
	if err := a.reg.Restore(ctx, name); err != nil {
		if errors.Is(err, cerebellum.ErrNotInTrash) {
			items, _ := a.reg.Trash()
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
	if asJSON {
		return writeJSON(io.out, map[string]string{"restored": name})
	}
	fmt.Fprintf(io.out, "Restored %s.\n", name)
	return nil
}

func capsEnable(ctx context.Context, a *app, name string, enable bool, grant string, asJSON bool, io stdio) error {
	var err error
	if enable {
		err = a.reg.Enable(name, splitList(grant))
	} else {
		if grant != "" {
			return fmt.Errorf("%w: --grant goes with enable", errUsage)
		}
		err = a.reg.Disable(name)
	}
	if err != nil {
		return err
	}
	c, err := a.reg.Get(name)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(io.out, rowOf(c))
	}
	fmt.Fprintf(io.out, "%s is %s.", c.Name, c.State)
	if len(c.Granted) > 0 {
		fmt.Fprintf(io.out, " Granted: %s.", strings.Join(c.Granted, ", "))
	}
	fmt.Fprintln(io.out)
	if c.State == cerebellum.StateFailed {
		fmt.Fprintln(io.out, "error: "+c.Error)
	}
	return nil
}

func capsResync(ctx context.Context, a *app, asJSON bool, io stdio) error {
	d, err := a.reg.Resync(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(io.out, d)
	}
	if d.Empty() {
		fmt.Fprintln(io.out, "No changes on disk.")
		return nil
	}
	for _, part := range []struct {
		label string
		names []string
	}{{"Added", d.Added}, {"Changed", d.Changed}, {"Removed", d.Removed}} {
		if len(part.names) > 0 {
			fmt.Fprintf(io.out, "%s: %s\n", part.label, strings.Join(part.names, ", "))
		}
	}
	return nil
}
