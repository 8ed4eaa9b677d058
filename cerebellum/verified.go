package cerebellum

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
)

// VerifiedFS is a built-in tree that knows which of its plugins passed the
// plugin check when Wrasse was built: brain/cerebellum's generated
// verified.go, kept current by a test. CheckPlugins trusts a built-in plugin
// whose CodeHash is the verified one (with its default settings) instead of
// interpreting it on every first start.
type VerifiedFS interface {
	fs.FS
	// Verified returns the CodeHash of each verified plugin, by folder.
	Verified() map[string]string
}

// verifiedBuiltin reports whether c is a built-in plugin checked at build
// time, unchanged since and running with its default settings (a plugin's
// Init may reject a setting, so other values are checked as usual).
func (r *Registry) verifiedBuiltin(c *Capability) bool {
	if c.Source != SourceBuiltin || c.CodeHash == "" || c.Manifest == nil || r.verified[c.Folder] != c.CodeHash {
		return false
	}
	if len(c.Manifest.Settings) == 0 {
		return true
	}
	eff := r.effectiveSettings(c)
	for _, s := range c.Manifest.Settings {
		if eff[s.Key] != s.Default {
			return false
		}
	}
	return true
}

// VerifyBuiltins checks every plugin of a built-in tree with loader as a
// first start would (trusted, default settings), and returns the CodeHash
// of each that passed, by folder, and the failures, sorted. It is what the
// generator of brain/cerebellum/verified.go runs, and its test.
func VerifyBuiltins(ctx context.Context, fsys fs.FS, loader Loader) (map[string]string, []error) {
	caps, err := scanTree(fsys, "", SourceBuiltin, nil)
	if err != nil {
		return nil, []error{err}
	}
	ok := map[string]string{}
	var errs []error
	for _, c := range caps {
		if c.State != StateOK || c.Kind != KindPlugin || !c.HasPluginSource() {
			continue
		}
		settings := map[string]string{}
		for _, s := range c.Manifest.Settings {
			settings[s.Key] = s.Default
		}
		req := LoadRequest{Capability: c, Trusted: true, Settings: settings}
		var cerr error
		if ch, isChecker := loader.(Checker); isChecker {
			cerr = ch.Check(ctx, req)
		} else {
			cerr = fmt.Errorf("%w: the loader cannot check plugins", ErrNoRuntime)
		}
		if cerr != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Folder, cerr))
			continue
		}
		ok[c.Folder] = c.CodeHash
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return ok, errs
}
