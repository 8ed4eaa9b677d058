// Package mcptest installs the published MCP reference servers
// (@modelcontextprotocol/server-everything and server-filesystem) that
// tests across Wrasse run against, once per machine, into one npm cache
// folder: [Servers] returns it, [Everything] the reference server's entry
// point. Every package's tests install through it, so none depends on
// another package's tests having run first.
package mcptest
