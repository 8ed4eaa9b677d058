package provider

import (
	"fmt"
	"time"
)

// Phase says what a request is doing while the person waits.
type Phase string

const (
	// PhaseConnecting: the request is on its way; nothing answered yet.
	PhaseConnecting Phase = "connecting"
	// PhaseLoading: the server is loading the model into memory (Ollama
	// says so), which can take a minute for a large model.
	PhaseLoading Phase = "loading"
	// PhaseWaiting: the server took the request; the model reads the
	// prompt before its first word.
	PhaseWaiting Phase = "waiting"
	// PhaseThinking: reasoning arrives (EventThinking pieces). Once the
	// answer's text or a call arrives, a front end hides the status: no
	// event says so.
	PhaseThinking Phase = "thinking"
	// PhaseStalled: nothing arrived for a moment in the middle of an
	// answer. The agent commits the text shown so far on it.
	PhaseStalled Phase = "stalled"
	// PhaseRetrying: the request failed for a passing reason and is sent
	// again after Delay (Attempt of Attempts).
	PhaseRetrying Phase = "retrying"
)

// Status is what a request is doing, for the person waiting: the chat
// shows Message with the time elapsed since Since, and updates it with
// each new Status. Statuses are not part of the answer and are never
// stored.
type Status struct {
	Phase Phase
	// Message is a short lowercase phrase ending in "…" for the waits
	// ("connecting to Ollama…", "loading llama3.1 into memory…") or
	// saying what happened ("retrying (2 of 3) in 1.5 s: connection
	// refused").
	Message string
	// Since is when this phase began: front ends show the elapsed time.
	Since time.Time
	// Model is the model asked.
	Model string
	// Attempt and Attempts number a retry (PhaseRetrying): attempt 2 of 3.
	Attempt, Attempts int
	// Delay is the wait before the retry (PhaseRetrying).
	Delay time.Duration
}

// Elapsed renders the time since Since at now for people: "3 s", "1 min 5 s".
func (s Status) Elapsed(now time.Time) string {
	d := now.Sub(s.Since).Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%d s", int(d.Seconds()))
	}
	return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
}

// Seconds renders d for people: "0.4 s", "12 s", "60 s", "5 min",
// "2 min 30 s".
func Seconds(d time.Duration) string {
	if d <= 90*time.Second {
		return seconds(d)
	}
	d = d.Round(time.Second)
	if s := int(d.Seconds()) % 60; s != 0 {
		return fmt.Sprintf("%d min %d s", int(d.Minutes()), s)
	}
	return fmt.Sprintf("%d min", int(d.Minutes()))
}
