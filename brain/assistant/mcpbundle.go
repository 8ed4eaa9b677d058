package assistant

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/wrasse-app/wrasse/brain/mcpbundle"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
)

// OpenBundle reads and validates an MCP bundle (.mcpb or .dxt) without
// writing anything: its manifest and user_config, for the person to
// answer (Bundle.Fields) before InstallBundle.
func (a *App) OpenBundle(path string) (*mcpbundle.Bundle, error) {
	return mcpbundle.Open(path, stage.DefaultLimits())
}

// InstallBundle installs an opened bundle as an MCP capability with the
// person's answers to its user_config: the bundle unpacked into the
// capability's folder with a SKILL.md whose mcp: block runs its server
// there, validated and installed like any capability, switched off until
// the person has seen the command and enabled it. Sensitive answers are
// stored as secrets (mcp.<name>.<key>) assigned to it, never written to
// the folder. A refused install leaves nothing behind.
func (a *App) InstallBundle(ctx context.Context, b *mcpbundle.Bundle, answers mcpbundle.Answers, replace bool) (*manage.InstallResult, error) {
	launch, err := b.Plan(answers, mcpbundle.UserFolders())
	if err != nil {
		return nil, fmt.Errorf("install %s: %w", filepath.Base(b.Path), err)
	}
	data, err := b.SkillMD(launch)
	if err != nil {
		return nil, fmt.Errorf("install %s: %w", filepath.Base(b.Path), err)
	}
	dir, err := a.privateStaging("mcpb-")
	if err != nil {
		return nil, fmt.Errorf("install %s: %w", filepath.Base(b.Path), err)
	}
	defer os.RemoveAll(dir)
	folder := filepath.Join(dir, b.Name)
	if err := b.Extract(folder); err != nil {
		return nil, fmt.Errorf("install %s: %w", filepath.Base(b.Path), err)
	}
	f, err := os.OpenFile(filepath.Join(folder, "SKILL.md"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("install %s: %w: the bundle has a SKILL.md of its own (%w)", filepath.Base(b.Path), mcpbundle.ErrUnsupported, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, fmt.Errorf("install %s: %w", filepath.Base(b.Path), err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("install %s: %w", filepath.Base(b.Path), err)
	}

	a.mu.Lock()
	defer a.mu.Unlock()
	if c, err := a.reg.Get(b.Name); err == nil && !replace {
		return nil, hint.With(fmt.Errorf("install %s: %w: a capability named %s is installed (%s); replace it or remove it first",
			filepath.Base(b.Path), cerebellum.ErrExists, c.Name, c.Kind), hint.Hint{Action: "Replace the installed one", Command: []string{"caps", "install", b.Path, "--replace"}})
	}
	restore, err := a.storeSecrets(launch.Secrets)
	if err != nil {
		return nil, fmt.Errorf("install %s: store its secrets: %w", b.Name, err)
	}
	res, err := a.mgr.Install(ctx, folder, manage.InstallOptions{Replace: replace})
	if err != nil && res == nil {
		restore()
		return nil, fmt.Errorf("install %s: %w", filepath.Base(b.Path), err)
	}
	a.afterInstall(res)
	if err == nil {
		if cerr := a.checkInstalled(ctx, b.Name, data); cerr != nil {
			restore()
			return nil, fmt.Errorf("install %s: %w", b.Name, cerr)
		}
		copied, cerr := a.copyNodeModules(folder, b.Name)
		if cerr != nil {
			return res, fmt.Errorf("install %s: %w", b.Name, cerr)
		}
		if copied {
			// Install skipped it as junk; here it was kept.
			res.Ignored = slices.DeleteFunc(res.Ignored, func(s string) bool { return s == "node_modules/" })
		}
	}
	for _, name := range sortedKeys(launch.Secrets) {
		if aerr := a.assignTo(name, b.Name); aerr != nil {
			return res, errors.Join(err, fmt.Errorf("install %s: %w", b.Name, aerr))
		}
	}
	return res, err
}

// copyNodeModules puts a Node bundle's dependencies into the installed
// folder. Capability install skips node_modules (elsewhere it is a cache,
// rebuilt and full of links); in a bundle it is part of the server, and
// the spec puts it there. The extraction refused links and special files
// already, so only folders and regular files are copied. Call with a.mu
// held.
func (a *App) copyNodeModules(staged, name string) (bool, error) {
	src := filepath.Join(staged, "node_modules")
	if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	c, err := a.reg.Get(name)
	if err != nil {
		return false, err
	}
	dst, err := os.OpenRoot(c.Dir)
	if err != nil {
		return false, fmt.Errorf("copy node_modules: %w", err)
	}
	defer dst.Close()
	return true, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(staged, p)
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := dst.Mkdir(rel, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("copy node_modules: %w", err)
			}
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("copy node_modules: %s is not a regular file", rel)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := dst.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm()&0o755)
		if err != nil {
			return fmt.Errorf("copy node_modules: %w", err)
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return fmt.Errorf("copy node_modules: %w", err)
		}
		return out.Close()
	})
}
