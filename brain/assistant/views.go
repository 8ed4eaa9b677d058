package assistant

import (
	"context"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// History is what a front end may read of the stored conversations. It
// has no way to change them: changes are App methods (Turn, Resend,
// RenameConversation, DeleteConversation, Unload…), which claim the
// conversation, wait for a running turn and announce the change, so what
// one front end does the other sees.
type History struct{ db *store.DB }

// History is the read-only view of the conversations.
func (a *App) History() History { return History{a.db} }

// GetConversation is conversation id's record.
func (h History) GetConversation(id store.ID) (store.Conversation, error) {
	return h.db.GetConversation(id)
}

// ListConversations is every conversation, most recent first.
func (h History) ListConversations() ([]store.Conversation, error) {
	return h.db.ListConversations()
}

// Events is every event of conversation id, in order.
func (h History) Events(id store.ID) ([]store.Event, error) { return h.db.Events(id) }

// LastEvents is the last n events of conversation id, in order.
func (h History) LastEvents(id store.ID, n int) ([]store.Event, error) {
	return h.db.LastEvents(id, n)
}

// EventsBefore is up to n events of conversation id before seq, in order
// (n ≤ 0: all of them).
func (h History) EventsBefore(id store.ID, before uint64, n int) ([]store.Event, error) {
	return h.db.EventsBefore(id, before, n)
}

// PageBefore is EventsBefore for a page the window shows: the events'
// images carry their type but not their bytes, which ImageData reads
// when a thumbnail is drawn (n ≤ 0 and before 0: the whole conversation).
func (h History) PageBefore(id store.ID, before uint64, n int) ([]store.Event, error) {
	return h.db.PageBefore(id, before, n)
}

// ImageData is the bytes of picture n of event seq of conversation id.
func (h History) ImageData(id store.ID, seq uint64, n int) ([]byte, error) {
	return h.db.ImageData(id, seq, n)
}

// Search finds query in every conversation's messages.
func (h History) Search(query string, limit int) ([]store.Hit, error) {
	return h.db.Search(query, limit)
}

// Loaded is the capabilities conversation id has loaded, least recently
// used first.
func (h History) Loaded(id store.ID) ([]string, error) { return h.db.Loaded(id) }

// Capabilities is what a front end may read of the capability registry:
// lists, details, the index and search a conversation sees. Changes
// (install, enable, grant, settings, Resync…) are App methods.
type Capabilities struct{ reg *cerebellum.Registry }

// Capabilities is the read-only view of the capability registry.
func (a *App) Capabilities() Capabilities { return Capabilities{a.reg} }

// Get is the capability named name.
func (c Capabilities) Get(name string) (*cerebellum.Capability, error) { return c.reg.Get(name) }

// List is every capability, sorted by name.
func (c Capabilities) List() []*cerebellum.Capability { return c.reg.List() }

// Snapshot is the registry's current, immutable state.
func (c Capabilities) Snapshot() *cerebellum.Snapshot { return c.reg.Snapshot() }

// Search runs tool_search's search for a session (nil: a fresh one).
func (c Capabilities) Search(sess *cerebellum.Session, query string, limit int) (cerebellum.SearchResult, error) {
	return c.reg.Search(sess, query, limit)
}

// NewSession is a capability session as conversation id would begin its
// next turn with loaded (nothing is stored or tracked).
func (c Capabilities) NewSession(id string, loaded []string) *cerebellum.Session {
	return c.reg.NewSession(id, loaded)
}

// Index is the capability index a session's system prompt carries.
func (c Capabilities) Index(sess *cerebellum.Session) string { return c.reg.Index(sess) }

// LoadedNames is the capabilities a session has loaded.
func (c Capabilities) LoadedNames(sess *cerebellum.Session) []string { return c.reg.LoadedNames(sess) }

// UnknownPinned is the pinnedCapabilities names that are not installed.
func (c Capabilities) UnknownPinned() []string { return c.reg.UnknownPinned() }

// Catalog is an MCP server capability's last known tool list.
func (c Capabilities) Catalog(name string) (cerebellum.Catalog, bool, error) {
	return c.reg.Catalog(name)
}

// CheckPlugins checks the plugin capabilities not checked yet, so a listing
// shows broken plugins before their first call (cerebellum.Registry.CheckPlugins).
func (a *App) CheckPlugins(ctx context.Context) { a.mgr.CheckPlugins(ctx, 0) }
