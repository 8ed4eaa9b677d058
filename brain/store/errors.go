package store

import "errors"

// Sentinel errors; callers test them with errors.Is. Call sites wrap them
// with the name of what was being done.
var (
	// ErrLocked means another process holds the workspace database.
	//lint:ignore ST1005 Wrasse is a name
	ErrLocked = errors.New("Wrasse is already running with this workspace")
	// ErrNotFound means the conversation, event, secret or setting does not exist.
	ErrNotFound = errors.New("not found")
	// ErrNewerSchema means the file was written by a newer Wrasse.
	ErrNewerSchema = errors.New("the workspace database was written by a newer version of Wrasse; update Wrasse to open it")
	// ErrCorrupt means stored bytes could not be decoded.
	ErrCorrupt = errors.New("the workspace database is damaged")
	// ErrInvalidEvent means an event was rejected before it was written.
	ErrInvalidEvent = errors.New("invalid event")
	// ErrNotStreaming means AppendText or FinishEvent targeted an event that
	// is not (or no longer) streaming.
	ErrNotStreaming = errors.New("event is not streaming")
	// ErrInvalidName means a secret, setting or capability name is not acceptable.
	ErrInvalidName = errors.New("invalid name")
	// ErrEmptyValue means a secret was given an empty value.
	ErrEmptyValue = errors.New("empty value")
	// ErrInvalidID means a conversation id string could not be parsed.
	ErrInvalidID = errors.New(`invalid conversation id (expected a form like "c42")`)
	// ErrEmptyQuery means a search query contained no words.
	ErrEmptyQuery = errors.New("search query has no words to look for")
)

// ErrDiskFull means a write failed because the disk holding the workspace
// has no space left; nothing of that write was stored.
var ErrDiskFull = errors.New("disk full")
