package sandbox_test

import (
	"strings"
	"testing"
)

// The sandbox's own /dev/shm is a tmpfs, memory: it is bounded, so a
// command cannot fill the machine's memory through it. fallocate asks for
// the space at once and is refused beyond the bound without using it.
func TestMountNamespaceDevShmBounded(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	out, ok := runIn(t, p, f.granted, "fallocate -l 1G /dev/shm/big; r=$?; rm -f /dev/shm/big; df -k --output=size /dev/shm | tail -1; exit $r", nil)
	if ok {
		t.Errorf("1 GiB in the sandbox's /dev/shm was granted: %s", out)
	}
	fields := strings.Fields(out)
	if len(fields) == 0 || fields[len(fields)-1] != "262144" {
		t.Errorf("/dev/shm size %q, want 262144 KiB (256 MiB)", out)
	}
}
