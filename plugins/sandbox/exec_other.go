//go:build !linux

package sandbox

import "os/exec"

// hasMountNS: only Linux has mount namespaces a process without
// privileges can own.
const hasMountNS = false

// mountNamespace: only Linux has mount namespaces a process without
// privileges can own; elsewhere the sandbox runs without one.
func mountNamespace(*exec.Cmd, *Policy) {}

// ExpectCommand is Expect: no mount namespace is asked for here.
func ExpectCommand(network bool) Status { return Expect(network) }
