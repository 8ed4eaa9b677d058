// Package atomicfile writes whole files so that a reader, or a crash, never
// sees half of one: the data goes to a temporary file beside the target, is
// flushed to disk, and is renamed over the target. It is the one such writer
// of the project (config.json, the engine's caches and state files). A
// write cut off by a crash or a kill can leave its temporary file behind;
// Sweep removes those at the next start.
//
// It is a leaf package (standard library only) so that every layer can use
// it.
package atomicfile
