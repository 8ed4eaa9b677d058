package eval

import "errors"

// Errors returned by the loaders. Callers test them with errors.Is; the
// wrapped message names the file and line to fix.
var (
	// ErrFormat means a data file is not in the expected shape: the tools
	// file must be a JSON object of tool name → description, the queries
	// file a CSV with a "Query,Tool" header.
	ErrFormat = errors.New("bad data set format")
	// ErrUnknownTool means a query names a tool the tools file lacks.
	ErrUnknownTool = errors.New("query names an unknown tool")
)
