package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/ui"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/doctor"
)

// databaseTrouble reports whether err is a database the doctor page can
// help with (damaged, or from a newer Wrasse), rather than a reason not
// to open a window at all.
func databaseTrouble(err error) bool {
	return errors.Is(err, store.ErrCorrupt) || errors.Is(err, store.ErrNewerSchema)
}

// windowSession is what the window shows over its life: the shell over an
// open core, or the doctor page when the database cannot be used (at
// start, or when damage turns up while it is open), and the shell again
// once the page repaired it.
type windowSession struct {
	ctx    context.Context
	getenv func(string) string
	opts   assistant.Options
	a      fyne.App
	w      fyne.Window

	// closeUI ends the running shell's widgets (on the UI goroutine) and
	// closeCore the rest: serving, the watcher, the core (off it, since
	// forwarded commands it waits for may be waiting for the UI). Both nil
	// while no shell runs.
	closeUI, closeCore func()
	closing            sync.WaitGroup

	// do runs on the UI goroutine and spawn off it (fyne.Do and a new
	// goroutine when nil): the doctor page reads the database with them.
	do, spawn func(func())
}

// show puts in the window what it opens with: the shell over core, or,
// when the database cannot be used (openErr, which databaseTrouble
// accepts), a page saying why with the ways out, instead of the chat (the
// chat once one worked). It returns that page.
func (s *windowSession) show(core *assistant.App, openErr error) (*doctor.Page, error) {
	if openErr != nil {
		page := s.showDoctor(openErr)
		page.Refresh()
		return page, nil
	}
	return nil, s.start(core)
}

// start shows the shell over core, with the notices banners above it.
// Call it on the UI goroutine (or before the window runs).
func (s *windowSession) start(core *assistant.App) error {
	env := bridge.Production(s.a, s.w, core)
	shell := ui.Build(env)
	var files []io.Closer
	if path := s.getenv(frameLogEnv); path != "" {
		// wrasse-bench measures the window's frames through this log.
		f, err := os.Create(path)
		if err != nil {
			shell.Close()
			return fmt.Errorf("open the frame log %s: %w", path, err)
		}
		files = append(files, f)
		shell.ProbeFrames(f)
	}
	if path := s.getenv(heapProfileEnv); path != "" {
		f, err := os.Create(path)
		if err != nil {
			shell.Close()
			return fmt.Errorf("open the heap profile %s: %w", path, err)
		}
		shell.ProfileHeap(f, func(err error) {
			if err == nil {
				err = f.Close()
			}
			if err != nil {
				core.Logger().Warn("the heap profile was not written", "file", path, "error", err)
			}
		})
	}
	runCtx, cancel := context.WithCancel(s.ctx)
	if err := shell.Start(runCtx); err != nil {
		// The window works without the watcher; Resync still applies hand edits.
		core.Logger().Warn("hand edits will not be noticed", "error", err)
	}
	if err := shell.StartTasks(runCtx); err != nil {
		core.Logger().Warn("scheduled tasks will not run", "error", err)
	}
	srv := &windowServer{
		raise: func() { env.Do(func() { s.w.Show(); s.w.RequestFocus() }) },
		done:  runCtx,
	}
	// A command that would widen what the assistant may do, sent from
	// outside the window, runs only once the person here says so.
	srv.cli = confirmingHandler(core, func(ctx context.Context, line string, from *assistant.Peer) bool {
		srv.raise()
		return ui.ConfirmRemote(ctx, env, remoteCommand(line, from))
	})
	if err := core.Serve(runCtx, srv.handle); err != nil {
		core.Logger().Warn("other wrasse commands cannot run through the window", "error", err)
	}
	notices := doctor.NewNotices(env)
	notices.OnDamage = s.damaged
	s.w.SetContent(container.NewBorder(notices.Object(), nil, nil, nil, shell.Object()))
	s.closeUI = func() {
		notices.Close()
	}
	s.closeCore = func() {
		srv.finish(cancel)
		shell.Close()
		cancel()
		for _, f := range files {
			f.Close()
		}
		core.Close()
	}
	// Damage the shell met while it was built (its first reads) came
	// before the notices listened.
	if err := core.DatabaseDamage(); err != nil {
		s.damaged(err)
	}
	return nil
}

// showDoctor puts the doctor page in the window for cause (why the
// database cannot be used) and reads the database for it.
func (s *windowSession) showDoctor(cause error) *doctor.Page {
	if s.do == nil {
		s.do = fyne.Do
	}
	if s.spawn == nil {
		s.spawn = func(fn func()) { go fn() }
	}
	ws, err := workspace.Resolve(s.opts.Workspace, s.getenv)
	if err != nil {
		ws = workspace.Workspace{}
	}
	page := doctor.New(doctor.Deps{
		Window: s.w,
		Do:     s.do,
		Go:     s.spawn,
		Doctor: assistant.NewDoctor(ws, nil, nil),
		Cause:  cause,
		Open:   s.reopen,
		Quit:   s.a.Quit,
	})
	s.w.SetTitle(ui.Title)
	s.w.SetContent(page.Object())
	s.w.Resize(fyne.NewSize(1000, 720))
	return page
}

// damaged swaps the running shell for the doctor page when the database
// turns out to be damaged while the window is open (writes have stopped);
// on the UI goroutine.
func (s *windowSession) damaged(err error) {
	if s.closeUI == nil {
		return
	}
	s.closeUI()
	closeCore := s.closeCore
	s.closeUI, s.closeCore = nil, nil
	page := s.showDoctor(err)
	s.closing.Add(1)
	go func() {
		defer s.closing.Done()
		// The page reads the file under its lock: the core lets go first.
		closeCore()
		page.Refresh()
	}()
}

// reopen opens the workspace again after the doctor page repaired its
// database, and shows the shell; off the UI goroutine.
func (s *windowSession) reopen() error {
	core, err := assistant.Open(s.opts)
	if err != nil {
		return err
	}
	fyne.DoAndWait(func() { err = s.start(core) })
	if err != nil {
		core.Close()
	}
	return err
}

// end closes whatever runs, once the window has closed.
func (s *windowSession) end() {
	if s.closeUI != nil {
		s.closeUI()
		s.closeCore()
		s.closeUI, s.closeCore = nil, nil
	}
	s.closing.Wait()
}
