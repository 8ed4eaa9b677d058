package cerebellum

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// CheckPlugins checks every usable plugin capability that is not loaded
// yet, marking failures, so a listing shows broken plugins without waiting
// for a first call. A plugin whose declared permissions are all granted (or
// that ships with Wrasse) is compiled and initialised; one still missing a
// grant is checked from source only, which reports the grant it needs.
// Verdicts are remembered by code, grants and source (Options.CheckCache),
// so a later start only checks what changed. It runs up to workers checks
// at once. Built-in plugins whose code matches what was checked when Wrasse
// was built (see VerifiedFS) are not checked again.
func (r *Registry) checkPlugins(ctx context.Context, workers int) {
	if workers <= 0 {
		workers = 2
	}
	// Failures are published together, one snapshot per pass (remembered
	// verdicts first, then what this pass checked), never one per failure.
	todo := r.applyVerdicts()
	if len(todo) == 0 {
		return
	}
	var failMu sync.Mutex
	checked := map[*Capability]error{}
	jobs := make(chan *Capability)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				err := r.check(ctx, c)
				if ctx.Err() != nil || errors.Is(err, ErrChangedOnDisk) {
					// No verdict on code that was not read: the next
					// snapshot checks what is on disk now.
					continue
				}
				if err != nil {
					r.checks.put(r.checkKey(c), err.Error())
					failMu.Lock()
					checked[c] = err
					failMu.Unlock()
				} else {
					r.checks.put(r.checkKey(c), "")
				}
			}
		}()
	}
	for _, c := range todo {
		select {
		case jobs <- c:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	if len(checked) > 0 {
		r.markFailedAll(checked)
	}
	if err := r.checks.save(); err != nil {
		r.log.Warn("saving plugin check results", "error", err)
	}
}

// applyVerdicts marks failed, in one snapshot, every plugin whose check
// failed before (a remembered verdict), and returns the plugins that need a
// check: usable, not loaded, not native, not verified at build time, and
// without a verdict.
func (r *Registry) applyVerdicts() []*Capability {
	var todo []*Capability
	remembered := map[*Capability]error{}
	for _, c := range r.Snapshot().caps {
		if !c.Usable() || c.Kind != KindPlugin {
			continue
		}
		if _, native := r.native[c.Name]; native && c.Source == SourceBuiltin {
			continue
		}
		r.rtMu.Lock()
		_, loaded := r.runtimes[c.Name]
		r.rtMu.Unlock()
		if loaded || r.verifiedBuiltin(c) {
			continue
		}
		if verdict, known := r.checks.get(r.checkKey(c)); known {
			if verdict != "" {
				remembered[c] = errors.New(verdict)
			}
			continue
		}
		todo = append(todo, c)
	}
	if len(remembered) > 0 {
		r.markFailedAll(remembered)
	}
	return todo
}

// checkKey names what a verdict depends on: the code, the grants and the
// settings (a plugin's Init may reject a setting).
func (r *Registry) checkKey(c *Capability) string {
	key := string(c.Source) + "|" + c.CodeHash + "|" + strings.Join(c.Granted, ",")
	if c.Manifest == nil || len(c.Manifest.Settings) == 0 {
		return key
	}
	settings := r.effectiveSettings(c)
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		fmt.Fprintf(h, "%s=%q\n", k, settings[k])
	}
	return key + "|" + hex.EncodeToString(h.Sum(nil))[:16]
}

func (r *Registry) check(ctx context.Context, c *Capability) error {
	loader := r.opts.Loaders[c.Kind]
	if loader == nil {
		return fmt.Errorf("%w: %s", ErrNoRuntime, c.Name)
	}
	req, err := r.pinnedRequest(c)
	if err != nil {
		return err
	}
	if len(c.MissingGrants()) > 0 {
		// Nothing of an untrusted plugin runs before its grants. Its source
		// is checked as it will run once granted, as install checked it:
		// against the grants the user can give it, not the ones given so far.
		if sc, ok := loader.(SourceChecker); ok {
			req.Granted = c.Manifest.Permissions.Names()
			return sc.CheckSource(ctx, req)
		}
		return nil
	}
	if ch, ok := loader.(Checker); ok {
		return ch.Check(ctx, req)
	}
	return nil
}
