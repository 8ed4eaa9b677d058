package assistant

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
)

// Policy decides which folders and network hosts a plugin reaches. It is
// pure: the App fills it from the current config and the registry.
type Policy struct {
	// Folders are the configured folders (config.json folders), as written.
	// None means none: no folder is granted by default.
	Folders []string
	// Home is the user's home folder: what a leading ~ means.
	Home string
	// Workspace is the workspace root, which only trusted plugins reach.
	Workspace string
}

// Roots are the folders capability c's plugin may touch, given the
// permissions the user granted it:
//   - plugins that ship with Wrasse (trusted) get the configured folders
//     and the workspace, so that absolute paths into it (a skill's folder)
//     work; the workspace is read-only to them all the same (it is among
//     workspace.Protected's read-only paths, which their tools and the
//     command sandbox enforce), so no tool rewrites brain/identity.md;
//   - others get nothing without the files permission; with it, the
//     folders their SKILL.md names under permissions.files, each kept only
//     if it lies inside a configured folder, or all configured folders
//     when it names none.
func (p Policy) Roots(c *cerebellum.Capability, granted []string) []string {
	trusted := c != nil && c.Source == cerebellum.SourceBuiltin
	if !trusted && !slices.Contains(granted, "files") {
		return nil
	}
	allowed := p.allowed()
	if trusted {
		return append(allowed, p.Workspace)
	}
	var scope []string
	if c != nil && c.Manifest != nil {
		scope = c.Manifest.Permissions["files"]
	}
	if len(scope) == 0 {
		return allowed
	}
	var roots []string
	for _, s := range scope {
		abs := p.abs(s)
		for _, base := range allowed {
			if within(abs, base) {
				roots = append(roots, abs)
				break
			}
		}
	}
	return roots
}

// Hosts are the network hosts capability c's plugin may reach: any for
// plugins that ship with Wrasse and for others granted network (their
// SKILL.md's list narrows it when it names hosts), none otherwise.
func (p Policy) Hosts(c *cerebellum.Capability, granted []string) []string {
	if c != nil && c.Source == cerebellum.SourceBuiltin {
		return []string{"*"}
	}
	if !slices.Contains(granted, "network") {
		return nil
	}
	if c != nil && c.Manifest != nil {
		if named := c.Manifest.Permissions["network"]; len(named) > 0 {
			return slices.Clone(named)
		}
	}
	return []string{"*"}
}

// allowed are the configured folders made absolute; none when none is
// configured (the whole home folder is never granted by default).
func (p Policy) allowed() []string {
	var out []string
	for _, f := range p.Folders {
		if a := p.abs(f); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// abs expands a leading ~ and makes path absolute and clean.
func (p Policy) abs(path string) string {
	if p.Home != "" && (path == "~" || strings.HasPrefix(path, "~/")) {
		path = filepath.Join(p.Home, strings.TrimPrefix(path, "~"))
	}
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return filepath.Clean(path)
}

// within reports whether path is base or lies beneath it.
func within(path, base string) bool {
	return path == base || strings.HasPrefix(path, strings.TrimSuffix(base, string(filepath.Separator))+string(filepath.Separator))
}

// policy is the Policy of the current config.
func (a *App) policy() Policy {
	return Policy{Folders: a.model.Load().cfg.Folders, Home: a.home(), Workspace: a.ws.Root}
}

// home is Options.Home, or the operating system's home folder.
func (a *App) home() string {
	if a.opts.Home != "" {
		return a.opts.Home
	}
	home, _ := os.UserHomeDir()
	return home
}

// Folders are the folders the assistant may work in, absolute: the
// configured ones, none when none is configured.
func (a *App) Folders() []string { return a.policy().allowed() }

func (a *App) pluginRoots(capability string, granted []string) []string {
	c, _ := a.reg.Get(capability)
	return a.policy().Roots(c, granted)
}

func (a *App) pluginHosts(capability string, granted []string) []string {
	c, _ := a.reg.Get(capability)
	hosts := a.policy().Hosts(c, granted)
	// A capability that declares an allowedHosts setting (Web) is narrowed
	// to what the user allowed there.
	if vals, err := a.reg.Settings(capability); err == nil {
		for _, v := range vals {
			if v.Key == AllowedHostsSetting {
				return NarrowHosts(hosts, commalist.Split(v.Value))
			}
		}
	}
	return hosts
}

// AllowedHostsSetting is the per-capability setting that narrows the hosts
// a capability's plugin may reach.
const AllowedHostsSetting = "allowedHosts"

// NarrowHosts keeps of hosts what allowed permits: "*" in allowed (or an
// empty allowed) keeps hosts as they are; "*" in hosts becomes allowed;
// otherwise a host stays when allowed names it or a "*.domain" pattern of
// allowed covers it.
func NarrowHosts(hosts, allowed []string) []string {
	if len(allowed) == 0 || slices.Contains(allowed, "*") {
		return hosts
	}
	if slices.Contains(hosts, "*") {
		return slices.Clone(allowed)
	}
	var out []string
	for _, h := range hosts {
		for _, a := range allowed {
			if strings.EqualFold(h, a) || (strings.HasPrefix(a, "*.") && strings.HasSuffix(strings.ToLower(h), strings.ToLower(a[1:]))) {
				out = append(out, h)
				break
			}
		}
	}
	return out
}
