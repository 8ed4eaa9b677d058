package mcp

//lint:file-ignore SA1019 MCP roots and logging are deprecated from protocol 2026-07-28 on and still what servers of earlier versions (most) use

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// LogKeep is how many of a server's log messages are kept (the newest).
const LogKeep = 500

// DefaultLogLevel is the level servers are asked to log at until the
// person picks another on the server's page.
const DefaultLogLevel = "info"

// LogLevels are the protocol's levels, least severe first (RFC 5424).
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// LogLine is one log message a server sent (notifications/message). It
// goes to the server's log view only: never into the chat or the prompt.
type LogLine struct {
	Time  time.Time
	Level string
	// Logger is the name the server gave the logger ("" when none).
	Logger string
	// Text is the message's data, as text when it is a string and as
	// JSON otherwise, with the server's secrets redacted.
	Text string
}

// String is the line as the log view shows it.
func (l LogLine) String() string {
	s := l.Time.Local().Format("15:04:05") + " " + l.Level
	if l.Logger != "" {
		s += " [" + l.Logger + "]"
	}
	return s + " " + l.Text
}

// serverLog is one server's log: the newest LogKeep lines and the level
// it is asked to log at. It outlives the server's connections.
type serverLog struct {
	mu    sync.Mutex
	level string
	lines []LogLine // a ring once full: next is the oldest
	next  int
}

func (g *serverLog) add(l LogLine) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.lines) < LogKeep {
		g.lines = append(g.lines, l)
		return
	}
	g.lines[g.next] = l
	g.next = (g.next + 1) % LogKeep
}

func (g *serverLog) snapshot() []LogLine {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append(slices.Clone(g.lines[g.next:]), g.lines[:g.next]...)
}

func (g *serverLog) getLevel() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.level == "" {
		return DefaultLogLevel
	}
	return g.level
}

// logOf is server name's log, made on first use.
func (l *Loader) logOf(name string) *serverLog {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.logs == nil {
		l.logs = map[string]*serverLog{}
	}
	g := l.logs[name]
	if g == nil {
		g = &serverLog{}
		l.logs[name] = g
	}
	return g
}

// Logs are the log messages server name sent since Wrasse started, oldest
// first (at most LogKeep).
func (l *Loader) Logs(name string) []LogLine { return l.logOf(name).snapshot() }

// LogLevel is the level server name is asked to log at.
func (l *Loader) LogLevel(name string) string { return l.logOf(name).getLevel() }

// SetLogLevel asks server name to log at level from now on: its live
// session at once (logging/setLevel), later ones when they start. A
// server that does not log is not asked.
func (l *Loader) SetLogLevel(ctx context.Context, name, level string) error {
	if !slices.Contains(LogLevels, level) {
		return fmt.Errorf("%w: %q (one of %v)", ErrBadLogLevel, level, LogLevels)
	}
	g := l.logOf(name)
	g.mu.Lock()
	g.level = level
	g.mu.Unlock()
	l.mu.Lock()
	var live []*server
	for s := range l.servers {
		if s.cfg.name == name && !s.oneShot {
			live = append(live, s)
		}
	}
	l.mu.Unlock()
	for _, s := range live {
		s.mu.Lock()
		c := s.conn
		s.mu.Unlock()
		if c != nil {
			if err := setLevel(ctx, c.cs, level); err != nil {
				return fmt.Errorf("MCP server %s: logging level: %w", name, err)
			}
		}
	}
	return nil
}

// setLevel sends logging/setLevel to a server that declares logging.
func setLevel(ctx context.Context, cs *sdk.ClientSession, level string) error {
	if r := cs.InitializeResult(); r == nil || r.Capabilities == nil || r.Capabilities.Logging == nil {
		return nil
	}
	return cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: sdk.LoggingLevel(level)})
}

// logHandler keeps what the server logs in its log, redacted as its
// stderr is.
func (s *server) logHandler(c *conn) func(context.Context, *sdk.LoggingMessageRequest) {
	g := s.l.logOf(s.cfg.name)
	return func(_ context.Context, req *sdk.LoggingMessageRequest) {
		p := req.Params
		if p == nil {
			return
		}
		text, ok := p.Data.(string)
		if !ok {
			b, err := json.Marshal(p.Data)
			if err != nil {
				return
			}
			text = string(b)
		}
		g.add(LogLine{Time: s.l.opts.now(), Level: string(p.Level), Logger: c.redact(p.Logger), Text: c.redact(text)})
	}
}
