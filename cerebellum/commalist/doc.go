// Package commalist is the one comma-separated list syntax of Wrasse, used
// by CLI flags (--grant a,b), config keys (pinnedCapabilities) and list
// settings of capabilities: items are separated by commas, blanks around
// an item are trimmed, and empty items are dropped.
//
// It is a leaf package (standard library only) so that every layer can use
// it.
package commalist
