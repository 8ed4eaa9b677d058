package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is how long the folder must be quiet before a notice.
const DefaultDebounce = 250 * time.Millisecond

// maxWatches bounds the folders watched, so a huge tree cannot exhaust the
// system's watch limit.
const maxWatches = 4096

// Options configure Watch.
type Options struct {
	Debounce time.Duration
	Logger   *slog.Logger
}

// Watch watches dir (created if missing) until ctx ends, calling onChange
// after each quiet burst of changes with the paths that changed in it,
// sorted; nil paths mean the watcher lost events (an overflow), so anything
// may have changed. It returns once the watch is set up; onChange runs on
// the watcher's goroutine.
func Watch(ctx context.Context, dir string, opt Options, onChange func(paths []string)) error {
	if opt.Debounce <= 0 {
		opt.Debounce = DefaultDebounce
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	count := 0
	addTree := func(root string) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if p != root && (d.Name() == ".git" || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			if count >= maxWatches {
				return fs.SkipAll
			}
			if err := w.Add(p); err == nil {
				count++
			}
			return nil
		})
	}
	addTree(dir)
	go func() {
		defer w.Close()
		var timer *time.Timer
		var fire <-chan time.Time
		changed := map[string]bool{}
		flush := func() {
			paths := make([]string, 0, len(changed))
			for p := range changed {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			clear(changed)
			onChange(paths)
		}
		for {
			select {
			case <-ctx.Done():
				if timer != nil {
					timer.Stop()
				}
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Op == fsnotify.Chmod || ignored(ev.Name) {
					continue
				}
				changed[ev.Name] = true
				if ev.Op&fsnotify.Create != 0 {
					if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
						addTree(ev.Name)
					}
				}
				if timer == nil {
					timer = time.NewTimer(opt.Debounce)
				} else {
					if !timer.Stop() {
						select {
						case <-timer.C:
						default:
						}
					}
					timer.Reset(opt.Debounce)
				}
				fire = timer.C
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				if !errors.Is(err, fsnotify.ErrEventOverflow) {
					log.Warn("watching capabilities", "error", err)
				}
				// An overflow lost events: report that anything may have
				// changed, so a full Resync looks.
				clear(changed)
				onChange(nil)
			case <-fire:
				fire = nil
				flush()
			}
		}
	}()
	return nil
}

// ignored skips editor droppings that are not capability content.
func ignored(name string) bool {
	base := filepath.Base(name)
	return strings.HasSuffix(base, "~") || strings.HasSuffix(base, ".swp") || strings.HasSuffix(base, ".swx") ||
		base == ".DS_Store" || strings.HasPrefix(base, ".#") || base == "4913"
}
