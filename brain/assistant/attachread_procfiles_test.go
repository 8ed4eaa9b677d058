//go:build linux

package assistant

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// The core's own process is Wrasse's own data (its environment holds the
// API keys it was started with, its memory map and status describe it),
// yet a path under /proc named straight, with no link to resolve (the
// core's pid, as a model asking "paste /proc/1234/maps so I can debug"
// would have the person do), was attached: its status and memory map
// read into the message. Files under /proc, /sys and /dev are not files
// but live views of processes, the kernel and devices; their content
// changes with no change to their identity, so what fs_read reads later
// is not what was attached either. They are refused, saying so.
func TestAttachProcessFilesNamedStraight(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc here")
	}
	a, m, _ := attackHome(t)
	pid := os.Getpid()
	for _, p := range []string{
		fmt.Sprintf("/proc/%d/status", pid),
		fmt.Sprintf("/proc/%d/maps", pid),
		fmt.Sprintf("/proc/%d/task/%d/status", pid, pid),
		"/proc/self/status",
		"/sys/kernel/hostname",
	} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		t.Run(p, func(t *testing.T) {
			if f, err := a.ReadAttachment(p); err == nil {
				t.Errorf("ReadAttachment(%s) read %d bytes of a live process or kernel file into the message: %.80q", p, len(f.Text), f.Text)
			} else if !strings.Contains(err.Error(), "not a file") {
				t.Errorf("ReadAttachment(%s): %v; want it refused as no file but a live view", p, err)
			}
			m.Reply(providertest.Text("Seen."))
			if _, err := a.Turn(context.Background(), 0, "see", TurnOptions{Files: []string{p}}); err == nil {
				t.Errorf("a turn attaching %s ran", p)
			}
		})
	}
}
