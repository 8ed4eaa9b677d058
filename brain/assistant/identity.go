package assistant

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
)

// MaxIdentityBytes bounds the identity and standing instructions: they
// open every request, so each of their tokens is paid on every turn, and
// more than this is a document the assistant should read when needed,
// not a prompt.
const MaxIdentityBytes = 16 << 10

// ErrIdentity: the identity text was refused (empty, too long, not text).
var ErrIdentity = errors.New("identity not saved")

// Identity is the identity and standing instructions every conversation
// starts with (brain/identity.md), as the next turn reads them.
type Identity struct {
	// Text is what the next turn uses: the file's text, or the default
	// when the file is missing or blank.
	Text string `json:"text"`
	// Default reports whether Text is the default that ships with Wrasse.
	Default bool `json:"default"`
	// Path is the file the text lives in (editable by hand as well).
	Path string `json:"path"`
}

// DefaultIdentity is the identity that ships with Wrasse, what a new
// workspace starts with and what ResetIdentity writes back.
func DefaultIdentity() string { return workspace.DefaultIdentity }

// Identity reads the identity and standing instructions as the next turn
// will use them.
func (a *App) Identity() (Identity, error) {
	id := Identity{Path: a.ws.Identity()}
	data, err := os.ReadFile(id.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return id, fmt.Errorf("read the identity: %w", err)
	}
	id.Text = string(data)
	if strings.TrimSpace(id.Text) == "" {
		// The turn falls back to the default on a blank file too.
		id.Text = DefaultIdentity()
	}
	id.Default = strings.TrimSpace(id.Text) == strings.TrimSpace(DefaultIdentity())
	return id, nil
}

// CheckIdentity says why text cannot be the identity (nil when it can).
func CheckIdentity(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return fmt.Errorf("%w: it is empty; write who the assistant is and how it should work, or reset to the default", ErrIdentity)
	case len(text) > MaxIdentityBytes:
		return fmt.Errorf("%w: it is %d KB, over the %d KB it may take (it opens every request); shorten it, or keep long material in a file the assistant reads when needed",
			ErrIdentity, (len(text)+1023)/1024, MaxIdentityBytes/1024)
	case !utf8.ValidString(text):
		return fmt.Errorf("%w: it is not valid UTF-8 text", ErrIdentity)
	case strings.ContainsRune(text, 0):
		return fmt.Errorf("%w: it holds a NUL character; remove it", ErrIdentity)
	}
	return nil
}

// SetIdentity replaces the identity and standing instructions with text,
// after CheckIdentity, atomically (a crash leaves the old file or the new,
// never half of one). The next turn of every conversation uses it;
// subscribers get EventConfig with Reason "identity".
func (a *App) SetIdentity(text string) error {
	if err := CheckIdentity(text); err != nil {
		return err
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	a.mu.Lock()
	err := atomicfile.Write(a.ws.Identity(), []byte(text), 0o600)
	a.mu.Unlock()
	if err != nil {
		return fmt.Errorf("save the identity to %s: %w", a.ws.Identity(), err)
	}
	a.subs.publish(Event{Kind: EventConfig, Reason: "identity"})
	return nil
}

// ResetIdentity puts the default identity back (DefaultIdentity).
func (a *App) ResetIdentity() error { return a.SetIdentity(DefaultIdentity()) }

// SystemPromptPreview is the system prompt the next turn of a new
// conversation would send with identity as its identity ("" or blank: the
// default): the identity, the environment (date, computer, granted
// folders) and the capability index, composed by the agent's own
// SystemPrompt. A conversation with capabilities loaded sends their tools
// besides; the prompt itself is this.
func (a *App) SystemPromptPreview(identity string) string {
	if strings.TrimSpace(identity) == "" {
		identity = DefaultIdentity()
	}
	facts := agent.HostFacts(a.opts.Getenv)
	facts.Folders, facts.FoldersKnown = a.Folders(), true
	return agent.SystemPrompt(identity, facts, a.opts.Clock(), a.reg.StableIndex())
}
