package mcp

//lint:file-ignore SA1019 MCP roots and logging are deprecated from protocol 2026-07-28 on and still what servers of earlier versions (most) use

import (
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// RootsChanged tells the live servers that were given roots (the folders
// granted to the assistant) that the grants changed: their roots become
// the folders granted now, and the SDK sends each session
// notifications/roots/list_changed, so a server that works in its roots
// (server-filesystem) asks again. A sandboxed server's reach is fixed
// when it starts: the app restarts those instead (Sandboxed).
func (l *Loader) RootsChanged() {
	now := l.mcpRoots()
	l.mu.Lock()
	var live []*conn
	for s := range l.servers {
		s.mu.Lock()
		if c := s.conn; c != nil && c.client != nil {
			live = append(live, c)
		}
		s.mu.Unlock()
	}
	l.mu.Unlock()
	for _, c := range live {
		c.setRoots(now)
	}
}

// setRoots makes the session's roots now: removed ones first, then the
// added ones (each change notifies the server once).
func (c *conn) setRoots(now []*sdk.Root) {
	c.rootsMu.Lock()
	defer c.rootsMu.Unlock()
	if c.roots == nil {
		return // it was given none: its command names its own folders
	}
	uris := func(rs []*sdk.Root) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = r.URI
		}
		return out
	}
	had, want := uris(c.roots), uris(now)
	var gone []string
	for _, u := range had {
		if !slices.Contains(want, u) {
			gone = append(gone, u)
		}
	}
	var added []*sdk.Root
	for _, r := range now {
		if !slices.Contains(had, r.URI) {
			added = append(added, r)
		}
	}
	if len(gone) > 0 {
		c.client.RemoveRoots(gone...)
	}
	if len(added) > 0 {
		c.client.AddRoots(added...)
	}
	// Non-nil: an empty grant list is still roots it was given.
	c.roots = append([]*sdk.Root{}, now...)
}
