package manage

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// AuthoringName is the built-in capability that lets the assistant list,
// inspect, validate and create capabilities.
const AuthoringName = "skills"

var pluginFileRe = regexp.MustCompile(`^[a-zA-Z0-9_]+\.go$`)

// Authoring is the native runtime of the built-in skills capability, for
// cerebellum.Options.Native under AuthoringName. What it creates is
// installed disabled with badge Authored; it has no way to enable a
// capability or grant a permission. manager returns the Manager of the
// registry it serves: the runtime is made before the registry is opened,
// and is first called after.
func Authoring(manager func() *Manager) cerebellum.Runtime { return authoring{manager} }

type authoring struct{ manager func() *Manager }

func (a authoring) Close() error { return nil }

type authoringArgs struct {
	Capability string            `json:"capability"`
	Filter     string            `json:"filter"`
	SkillMD    string            `json:"skill_md"`
	Plugin     map[string]string `json:"plugin_files"`
	Replace    bool              `json:"replace"`
}

func (a authoring) Call(ctx context.Context, tool string, raw json.RawMessage) (cerebellum.Result, error) {
	var args authoringArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		return cerebellum.Result{Content: "arguments must be a JSON object: " + err.Error(), IsError: true}, nil
	}
	switch tool {
	case "skill_list":
		return cerebellum.Result{Content: a.list(args.Filter)}, nil
	case "skill_inspect":
		c, err := a.manager().reg.Get(args.Capability)
		if err != nil {
			return cerebellum.Result{Content: err.Error(), IsError: true}, nil
		}
		return cerebellum.Result{Content: cerebellum.DescribeCapability(c)}, nil
	case "skill_validate":
		if args.Capability != "" && args.SkillMD == "" {
			c, err := a.manager().reg.Get(args.Capability)
			if err != nil {
				return cerebellum.Result{Content: err.Error(), IsError: true}, nil
			}
			if c.State == cerebellum.StateFailed {
				return cerebellum.Result{Content: fmt.Sprintf("%s is failed:\n%s", c.Name, firstNonEmpty(c.Detail, c.Error))}, nil
			}
			return cerebellum.Result{Content: fmt.Sprintf("%s is %s and loads without errors.", c.Name, c.State)}, nil
		}
		rep, err := a.draft(ctx, args, func(dir string) (*Report, error) {
			return a.manager().Validate(ctx, os.DirFS(dir), draftName(args.SkillMD), dir, ValidateOptions{Replace: args.Replace && a.manager().isAuthored(draftName(args.SkillMD))}), nil
		})
		if err != nil {
			return cerebellum.Result{Content: err.Error(), IsError: true}, nil
		}
		return cerebellum.Result{Content: formatReport(rep), IsError: !rep.OK()}, nil
	case "skill_create":
		var res *InstallResult
		_, err := a.draft(ctx, args, func(dir string) (*Report, error) {
			var err error
			res, err = a.manager().Install(ctx, dir, InstallOptions{Authored: true, Replace: args.Replace})
			return nil, err
		})
		if err != nil {
			return cerebellum.Result{Content: err.Error(), IsError: true}, nil
		}
		msg := fmt.Sprintf("Created %s (%s) in the workspace. It is installed DISABLED with the badge Authored: ask the user to review and enable it in Settings → Capabilities (or `wrasse caps enable %s`).", res.Name, res.Report.Kind, res.Name)
		if len(res.Report.Permissions) > 0 {
			msg += fmt.Sprintf(" Its plugin needs these permissions, which only the user can grant: %s.", strings.Join(res.Report.Permissions, ", "))
		}
		if len(res.Report.Warnings) > 0 {
			msg += "\nWarnings:\n- " + strings.Join(res.Report.Warnings, "\n- ")
		}
		return cerebellum.Result{Content: msg}, nil
	}
	return cerebellum.Result{}, fmt.Errorf("%w: skills has no tool %q", cerebellum.ErrUnknownTool, tool)
}

// draft writes the SKILL.md and plugin files to a private folder in the
// staging area, runs fn on it and removes it.
func (a authoring) draft(ctx context.Context, args authoringArgs, fn func(dir string) (*Report, error)) (*Report, error) {
	if strings.TrimSpace(args.SkillMD) == "" {
		return nil, fmt.Errorf("skill_md is required: the full SKILL.md text, frontmatter included")
	}
	ws := a.manager().reg.Workspace()
	if ws == "" {
		return nil, cerebellum.ErrNoWorkspace
	}
	if err := os.MkdirAll(cerebellum.StagingDir(ws), 0o700); err != nil {
		return nil, err
	}
	defer os.Remove(cerebellum.StagingDir(ws))
	dir, err := os.MkdirTemp(cerebellum.StagingDir(ws), "draft-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(args.SkillMD), 0o644); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(args.Plugin))
	for n := range args.Plugin {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		base := strings.TrimPrefix(n, "plugin/")
		if !pluginFileRe.MatchString(base) {
			return nil, fmt.Errorf("plugin file name %q: use a plain name like main.go (letters, digits, _)", n)
		}
		if err := os.MkdirAll(filepath.Join(dir, "plugin"), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "plugin", base), []byte(args.Plugin[n]), 0o644); err != nil {
			return nil, err
		}
	}
	return fn(dir)
}

func draftName(skill string) string {
	if m, _, err := ValidateManifest([]byte(skill), "SKILL.md"); err == nil && m != nil {
		return m.Name
	}
	return "draft"
}

func (a authoring) list(filter string) string {
	var b strings.Builder
	n := 0
	for _, c := range a.manager().reg.List() {
		switch filter {
		case "workspace":
			if c.Source != cerebellum.SourceWorkspace {
				continue
			}
		case "builtin":
			if c.Source != cerebellum.SourceBuiltin {
				continue
			}
		case "failed", "disabled", "ok":
			if string(c.State) != filter {
				continue
			}
		}
		n++
		kind := string(c.Kind)
		if len(c.Tools()) > 0 {
			kind = fmt.Sprintf("%d %s", len(c.Tools()), plural(len(c.Tools()), "tool", "tools"))
		}
		line := fmt.Sprintf("- %s (%s) [%s, %s]", c.Name, kind, c.State, c.Badge)
		if c.State == cerebellum.StateFailed {
			line += " error: " + cerebellum.PromptLine(c.Error, 160)
		} else {
			line += " — " + cerebellum.PromptLine(c.Description(), cerebellum.IndexDescriptionLimit)
		}
		b.WriteString(line + "\n")
	}
	if n == 0 {
		return "No capabilities match."
	}
	return strings.TrimRight(b.String(), "\n")
}

func formatReport(rep *Report) string {
	var b strings.Builder
	if rep.OK() {
		fmt.Fprintf(&b, "%s is valid (%s", rep.Name, rep.Kind)
		if len(rep.Tools) > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(rep.Tools, ", "))
		}
		b.WriteString(").")
	} else {
		fmt.Fprintf(&b, "%s is not valid:\n", rep.Name)
		for _, e := range rep.Errors {
			b.WriteString(e + "\n")
		}
	}
	if len(rep.Permissions) > 0 {
		fmt.Fprintf(&b, "\nIts plugin needs: %s (only the user can grant these).", strings.Join(rep.Permissions, ", "))
	}
	for _, w := range rep.Warnings {
		b.WriteString("\nwarning: " + w)
	}
	return strings.TrimSpace(b.String())
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
