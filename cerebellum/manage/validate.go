package manage

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/schema"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Report is the outcome of validating a capability folder against the
// current registry, before anything is installed.
type Report struct {
	Capability *cerebellum.Capability `json:"-"`
	Name       string                 `json:"name"`
	Kind       cerebellum.Kind        `json:"kind"`
	Tools      []string               `json:"tools,omitempty"`
	// Permissions are what its plugin declares it needs.
	Permissions []string `json:"permissions,omitempty"`
	Errors      []string `json:"errors,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
	// Replaces names the installed capability a --replace install would replace.
	Replaces string `json:"replaces,omitempty"`
	// Installed names the installed capability of the same name that stops
	// this one installing without Replace.
	Installed string `json:"installed,omitempty"`
}

// OK reports whether validation found no errors.
func (r *Report) OK() bool { return len(r.Errors) == 0 }

// Err returns the errors as one error (nil when OK).
func (r *Report) Err() error {
	if r.OK() {
		return nil
	}
	return fmt.Errorf("%w: %s:\n%s", cerebellum.ErrInvalidCapability, r.Name, strings.Join(r.Errors, "\n"))
}

// ValidateOptions tune Validate.
type ValidateOptions struct {
	// Replace allows the name of an installed workspace capability (it would be replaced).
	Replace bool
	// Grant are permissions already granted. The plugin's Init runs only
	// when every permission it declares is granted; otherwise its source is
	// checked without running it.
	Grant []string
}

// Validate checks a capability folder completely — the same parser and
// checks as the registry, every schema compiled, names and tools against
// what is installed, and a plugin compiled under its permission rules —
// without installing or loading anything.
func (mgr *Manager) Validate(ctx context.Context, fsys fs.FS, folder, dir string, opt ValidateOptions) *Report {
	c := cerebellum.ReadCapability(fsys, folder, dir, cerebellum.SourceWorkspace)
	rep := &Report{Capability: c, Name: c.Name, Kind: c.Kind}
	if c.State == cerebellum.StateFailed {
		detail := c.Detail
		if detail == "" {
			detail = c.Error
		}
		rep.Errors = append(rep.Errors, detail)
		return rep
	}
	m := c.Manifest
	for _, w := range m.Warnings {
		rep.Warnings = append(rep.Warnings, w.String())
	}
	if names := m.Permissions.Names(); c.Kind == cerebellum.KindPlugin {
		rep.Permissions = names
	} else if len(names) > 0 {
		// Only a plugin's code is held to permissions; saying "grant"
		// for anything else would promise a protection that is not there.
		what := "a guide (no plugin/ folder)"
		if c.Kind == cerebellum.KindMCP {
			what = "an MCP server, which is approved by enabling it"
		}
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s/SKILL.md: permissions: %s apply to plugins only, and this is %s: nothing grants or checks them",
			folder, commalist.Prose(names), what))
	}
	for _, t := range m.Tools {
		rep.Tools = append(rep.Tools, t.Name)
		if _, err := schema.Compile(t.Parameters); err != nil {
			rep.Errors = append(rep.Errors, fmt.Sprintf("%s/SKILL.md: tool %s: parameters: %v", folder, t.Name, err))
		}
		if len(t.OutputSchema) > 0 {
			if _, err := schema.Compile(t.OutputSchema); err != nil {
				rep.Errors = append(rep.Errors, fmt.Sprintf("%s/SKILL.md: tool %s: outputSchema: %v", folder, t.Name, err))
			}
		}
	}
	snap := mgr.reg.Snapshot()
	if other, ok := snap.Get(c.Name); ok {
		switch {
		case other.Source == cerebellum.SourceBuiltin:
			rep.Errors = append(rep.Errors, fmt.Sprintf("the name %q belongs to a capability that ships with Wrasse; choose another name", c.Name))
		case opt.Replace:
			rep.Replaces = other.Name
		default:
			rep.Installed = other.Name
			rep.Errors = append(rep.Errors, fmt.Sprintf("a capability named %q is already installed (folder %s); remove it first, or install again replacing it", c.Name, other.Folder))
		}
	}
	for _, b := range snap.Capabilities() {
		if b.Source == cerebellum.SourceBuiltin && b.Folder == c.Name && b.Name != c.Name {
			rep.Errors = append(rep.Errors, fmt.Sprintf("the folder name %q belongs to a capability that ships with Wrasse; choose another name", c.Name))
		}
	}
	var clashes []string
	for _, t := range m.Tools {
		owner, ok := snap.Owner(t.Name)
		if !ok {
			if sh, ok := mgr.hook.ShadowOwner(snap, t.Name); ok && sh.Name != c.Name && sh.Name != rep.Replaces {
				clashes = append(clashes, fmt.Sprintf("%s (also declared by %s, which is %s)", t.Name, sh.Name, sh.State))
			}
			continue
		}
		if owner.Name == rep.Replaces {
			continue
		}
		clashes = append(clashes, fmt.Sprintf("%s (already provided by %s)", t.Name, owner.Name))
	}
	if len(clashes) > 0 {
		sort.Strings(clashes)
		rep.Errors = append(rep.Errors, "tool name collision: "+strings.Join(clashes, ", ")+"; rename these tools")
	}
	for _, req := range m.Requires {
		dep, ok := snap.Get(req)
		switch {
		case !ok:
			rep.Errors = append(rep.Errors, fmt.Sprintf("requires %s, which is not installed; install it first", req))
		case dep.State != cerebellum.StateOK:
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("requires %s, which is %s; it will fail until that is fixed", req, dep.State))
		}
	}
	switch c.Kind {
	case cerebellum.KindPlugin:
		if !c.HasPluginSource() {
			rep.Errors = append(rep.Errors, "SKILL.md declares tools but the folder has no plugin/*.go to serve them: add the plugin, or remove the tools to make it a guide")
			break
		}
		loader := mgr.reg.Loader(cerebellum.KindPlugin)
		declared := m.Permissions.Names()
		granted := map[string]bool{}
		for _, g := range opt.Grant {
			granted[g] = true
		}
		var missing []string
		for _, p := range declared {
			if !granted[p] {
				missing = append(missing, p)
			}
		}
		// Judge imports against what the plugin declares, without running it.
		if sc, ok := loader.(cerebellum.SourceChecker); ok {
			if err := sc.CheckSource(ctx, cerebellum.LoadRequest{Capability: c, Workspace: mgr.reg.Workspace(), Granted: declared}); err != nil {
				rep.Errors = append(rep.Errors, err.Error())
				break
			}
		}
		ch, ok := loader.(cerebellum.Checker)
		if !ok {
			rep.Warnings = append(rep.Warnings, "the plugin was not compiled: this build has no plugin host")
			break
		}
		if len(missing) > 0 {
			// Init may only run with authority the user has given.
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("the plugin's source was checked but it was not run: it starts once the user grants %s", strings.Join(missing, ", ")))
			break
		}
		c.Granted = opt.Grant
		if err := ch.Check(ctx, cerebellum.LoadRequest{Capability: c, Workspace: mgr.reg.Workspace(), Granted: opt.Grant}); err != nil {
			rep.Errors = append(rep.Errors, err.Error())
		}
	case cerebellum.KindMCP:
		if mgr.reg.Loader(cerebellum.KindMCP) == nil {
			rep.Warnings = append(rep.Warnings, "MCP servers are not supported by this build yet; it will be listed as failed")
		}
	}
	return rep
}

// ValidateManifest checks a lone SKILL.md (no folder around it).
func ValidateManifest(data []byte, file string) (*skillmd.Manifest, []string, error) {
	m, err := skillmd.Parse(data, skillmd.Options{File: file})
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	for _, w := range m.Warnings {
		warnings = append(warnings, w.String())
	}
	var errs []string
	for _, t := range m.Tools {
		if _, err := schema.Compile(t.Parameters); err != nil {
			errs = append(errs, fmt.Sprintf("%s: tool %s: parameters: %v", file, t.Name, err))
		}
	}
	if len(errs) > 0 {
		return m, warnings, fmt.Errorf("%w: %s", cerebellum.ErrInvalidCapability, strings.Join(errs, "\n"))
	}
	return m, warnings, nil
}
