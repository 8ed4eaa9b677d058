package bench

import (
	"os"
	"runtime"
	"testing"
)

// TestRSSProbeIsNotFlooredByItsParent: a child started from this process
// reports at least this process's peak (Linux carries it across exec), but
// one started from the probe reports its own.
func TestRSSProbeIsNotFlooredByItsParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the high-water mark carried across exec is Linux's")
	}
	probe, err := buildRSSProbe(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Raise this process's peak well above what the child needs.
	big := make([]byte, 256<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1
	}
	self, ok, err := readVmHWM()
	if err != nil || !ok {
		t.Skipf("no VmHWM: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	kB, err := probeRSS(t.Context(), probe, exe, "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(big)
	if kB <= 0 || kB >= self {
		t.Fatalf("the probe measured %d KiB for a test binary that runs no test; this process's peak is %d KiB", kB, self)
	}
}
