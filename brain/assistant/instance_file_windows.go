package assistant

import (
	"os"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// checkSocket checks what Windows lets Go see: no link, no folder. Who
// owns the socket is in its ACL, which this build does not read.
func checkSocket(path string) error { return workspace.CheckPrivate(path, false, 0o600) }

// openNoFollow opens path for reading (CheckPrivate refused links).
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }
