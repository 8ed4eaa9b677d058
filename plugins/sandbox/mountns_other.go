//go:build unix && !linux

package sandbox

// MountNamespace: no mount namespace outside Linux (Command asks for
// none there).
func MountNamespace(p Policy, cwd string) (bool, string) { return false, p.MountNSRefused }
