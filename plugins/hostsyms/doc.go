// Package hostsyms holds the interpreter symbol maps of the host packages a
// plugin may import: today only plugins/sdk. The maps are generated with
// `yaegi extract` (see the go:generate line in hostsyms.go); Exports hands
// each interpreter its own copy.
package hostsyms
