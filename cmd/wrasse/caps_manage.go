package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
)

// capsValidate checks a folder, a SKILL.md or an archive without
// installing it, staged exactly as an install would stage it (so links,
// nested archives and size limits are caught too).
func capsValidate(ctx context.Context, a *app, path string, asJSON bool, io stdio) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wrasse-validate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	st, err := stage.Stage(abs, tmp, stage.DefaultLimits())
	if err != nil {
		return err
	}
	folder := filepath.Base(abs)
	if st.Kind != stage.KindFolder {
		folder = strings.TrimSuffix(folder, filepath.Ext(folder))
		if data, err := os.ReadFile(filepath.Join(st.Dir, "SKILL.md")); err == nil {
			if m, _, err := cerebellum.ValidateManifest(data, filepath.Base(path)); err == nil {
				folder = m.Name
			}
		}
	}
	// Checking an installed capability's own folder is not a name clash.
	opt := cerebellum.ValidateOptions{}
	for _, c := range a.reg.List() {
		if c.Dir != "" && filepath.Clean(c.Dir) == abs {
			opt.Replace = true
			opt.Grant = c.Granted
		}
	}
	rep := a.reg.Validate(ctx, os.DirFS(st.Dir), folder, st.Dir, opt)
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
	printWarnings(io.out, rep.Warnings)
	if !rep.OK() {
		return errSilent
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
	printWarnings(io.out, res.Report.Warnings)
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
