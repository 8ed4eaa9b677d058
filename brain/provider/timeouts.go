package provider

import "time"

// Timeout defaults: every wait for a server has an end.
const (
	// DefaultConnectTimeout bounds opening the connection (TCP and TLS).
	DefaultConnectTimeout = 10 * time.Second
	// DefaultIdleTimeout bounds the silence between pieces of an answer,
	// and before the first one from a server elsewhere.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultLoadTimeout bounds the wait for the first piece from a server
	// on this computer, or one loading the model (Ollama says so): it may
	// be reading a large model from disk and then a long prompt.
	DefaultLoadTimeout = 5 * time.Minute
	// DefaultAfterFinish is how long a stream that gave its finish reason
	// may take to end (the usage that follows it) before it counts as
	// complete anyway.
	DefaultAfterFinish = 5 * time.Second
	// DefaultStallNotice is the silence mid-answer after which a
	// PhaseStalled status is sent (the agent commits what was shown on it).
	DefaultStallNotice = 250 * time.Millisecond
	// DefaultSlowStart is the wait for a first piece after which a
	// provider looks for why (Ollama: is the model being loaded?).
	DefaultSlowStart = time.Second
)

// Timeouts are a provider's limits on waiting for a server. Zero fields
// take the defaults.
type Timeouts struct {
	Connect     time.Duration
	Idle        time.Duration
	Load        time.Duration
	AfterFinish time.Duration
	StallNotice time.Duration
	SlowStart   time.Duration
}

// WithDefaults fills the zero fields. Load is never shorter than Idle.
func (t Timeouts) WithDefaults() Timeouts {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&t.Connect, DefaultConnectTimeout)
	def(&t.Idle, DefaultIdleTimeout)
	def(&t.Load, DefaultLoadTimeout)
	def(&t.AfterFinish, DefaultAfterFinish)
	def(&t.StallNotice, DefaultStallNotice)
	def(&t.SlowStart, DefaultSlowStart)
	t.Load = max(t.Load, t.Idle)
	return t
}
