package settings

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/modelfacts"
)

// pullShowEvery bounds how often a download's progress is redrawn: Ollama
// reports every few kilobytes.
const pullShowEvery = 100 * time.Millisecond

// pullPanel downloads a model into the configured Ollama (App.PullModel)
// and shows how it goes: a progress bar, the bytes done of the total,
// the speed and the time left, and Cancel (a later download resumes
// where it stopped).
type pullPanel struct {
	env *bridge.Env
	now func() time.Time
	// after runs fn on a goroutine of its own after d (a redraw held back
	// by pullShowEvery).
	after func(d time.Duration, fn func())

	title  *widget.Label
	bar    *widget.ProgressBar
	detail *widget.Label
	cancel *escButton
	obj    *fyne.Container

	stop    context.CancelFunc
	running bool
	// rate follows the download's speed.
	rate rateMeter
}

func newPullPanel(env *bridge.Env) *pullPanel {
	p := &pullPanel{env: env, now: time.Now, after: func(d time.Duration, fn func()) { time.AfterFunc(d, fn) }}
	p.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.bar = widget.NewProgressBar()
	p.detail = widget.NewLabel("")
	p.detail.Wrapping = fyne.TextWrapWord
	p.cancel = newButtonWithIcon("Cancel", theme.CancelIcon(), p.Cancel)
	p.obj = container.NewVBox(p.title, p.bar, container.NewBorder(nil, nil, nil, p.cancel, p.detail))
	p.obj.Hide()
	return p
}

// Object is the panel (hidden until a download starts).
func (p *pullPanel) Object() fyne.CanvasObject { return p.obj }

// Running reports whether a download runs.
func (p *pullPanel) Running() bool { return p.running }

// Start downloads model, then calls done on the UI goroutine with the
// outcome (nil: the model is there; context.Canceled: Cancel).
func (p *pullPanel) Start(model string, done func(error)) {
	if p.running {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.stop, p.running = cancel, true
	p.rate = rateMeter{}
	p.title.SetText("Downloading " + model)
	p.bar.SetValue(0)
	p.detail.SetText("Asking Ollama for " + model + "…")
	p.cancel.Show()
	p.obj.Show()
	th := &pullThrottle{now: p.now, after: p.after, show: func(pr ollama.Progress, at time.Time) {
		p.env.Do(func() {
			if p.running {
				p.show(pr, at)
			}
		})
	}}
	p.env.Go(func() {
		err := p.env.Core.PullModel(ctx, model, th.step)
		cancel()
		p.env.Do(func() {
			p.running = false
			p.cancel.Hide()
			switch {
			case err == nil:
				p.bar.SetValue(1)
				p.detail.SetText(model + " is downloaded.")
			case errors.Is(err, context.Canceled):
				p.detail.SetText("Download stopped. Downloading " + model + " again resumes it.")
			default:
				p.detail.SetText("The download failed: " + plainError(err))
			}
			if done != nil {
				done(err)
			}
		})
	})
}

// Cancel stops the download.
func (p *pullPanel) Cancel() {
	if p.stop != nil {
		p.stop()
	}
}

// show draws one step of the download.
func (p *pullPanel) show(pr ollama.Progress, now time.Time) {
	if pr.Total > 0 {
		p.bar.SetValue(float64(pr.Completed) / float64(pr.Total))
		p.rate.add(now, pr.Digest, pr.Completed)
	}
	p.detail.SetText(progressText(pr, p.rate.speed()))
}

// progressText says where a download is: "1.2 GB of 4.9 GB · 35 MB/s ·
// about 2 min left", or the server's step ("verifying sha256 digest").
func progressText(pr ollama.Progress, speed float64) string {
	if pr.Total <= 0 {
		return pr.Status
	}
	s := modelfacts.Bytes(pr.Completed) + " of " + modelfacts.Bytes(pr.Total)
	if speed > 0 && pr.Completed < pr.Total {
		left := time.Duration(float64(pr.Total-pr.Completed) / speed * float64(time.Second))
		s += " · " + modelfacts.Bytes(int64(speed)) + "/s · about " + roughly(left) + " left"
	}
	return s
}

// roughly is a time left as people say it: "40 s", "3 min", "1 h 20 min".
func roughly(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", max(int(d.Seconds()+0.5), 1))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()+0.5))
	}
	h := int(d.Hours())
	return fmt.Sprintf("%d h %d min", h, int(d.Minutes())-60*h)
}

// rateMeter measures a download's speed over its last few seconds.
type rateMeter struct {
	digest string
	// samples are (time, bytes done) of the layer downloading, oldest
	// first, at most rateWindow apart.
	samples []rateSample
}

type rateSample struct {
	at   time.Time
	done int64
}

// rateWindow is how far back the speed looks.
const rateWindow = 5 * time.Second

func (r *rateMeter) add(at time.Time, digest string, done int64) {
	if digest != r.digest {
		r.digest, r.samples = digest, nil // a new layer starts from 0
	}
	r.samples = append(r.samples, rateSample{at, done})
	for len(r.samples) > 2 && at.Sub(r.samples[0].at) > rateWindow {
		r.samples = r.samples[1:]
	}
}

// speed is bytes per second, 0 until two samples are apart.
func (r *rateMeter) speed() float64 {
	if len(r.samples) < 2 {
		return 0
	}
	a, b := r.samples[0], r.samples[len(r.samples)-1]
	dt := b.at.Sub(a.at).Seconds()
	if dt <= 0 || b.done <= a.done {
		return 0
	}
	return float64(b.done-a.done) / dt
}

// pullThrottle hands a download's steps to the screen at most every
// pullShowEvery, a new step (status or layer) at once, and the latest one
// held back after the interval, so a download that pauses still shows
// where it is.
type pullThrottle struct {
	now   func() time.Time
	after func(d time.Duration, fn func())
	show  func(pr ollama.Progress, at time.Time)

	mu      sync.Mutex
	last    time.Time
	shown   ollama.Progress
	latest  ollama.Progress
	pending bool
	timer   bool
}

// step is called with each step, on the download's goroutine.
func (t *pullThrottle) step(pr ollama.Progress) {
	now := t.now()
	t.mu.Lock()
	soon := now.Sub(t.last) < pullShowEvery && pr.Status == t.shown.Status && pr.Digest == t.shown.Digest && pr.Completed < pr.Total
	if soon {
		t.latest, t.pending = pr, true
		wait := pullShowEvery - now.Sub(t.last)
		arm := !t.timer
		t.timer = true
		t.mu.Unlock()
		if arm {
			t.after(wait, t.flush)
		}
		return
	}
	t.last, t.shown, t.pending = now, pr, false
	t.mu.Unlock()
	t.show(pr, now)
}

// flush shows the step held back, if it is still the latest.
func (t *pullThrottle) flush() {
	t.mu.Lock()
	t.timer = false
	if !t.pending {
		t.mu.Unlock()
		return
	}
	pr, now := t.latest, t.now()
	t.last, t.shown, t.pending = now, pr, false
	t.mu.Unlock()
	t.show(pr, now)
}
