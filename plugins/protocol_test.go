package plugins

import (
	"errors"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// A plugin process refuses a load from a host speaking another protocol
// version, saying what to do.
func TestChildRefusesOtherProtocolVersion(t *testing.T) {
	for _, v := range []int{childproc.Version + 1, childproc.Version - 1, 0} {
		s := &childServer{log: discard()}
		_, err := s.start(t.Context(), &wireLoad{Version: v, Name: "x"})
		if !errors.Is(err, ErrInit) || !errors.Is(err, childproc.ErrVersion) || !strings.Contains(err.Error(), "restart Wrasse") {
			t.Fatalf("version %d: start = %v; want a protocol version error", v, err)
		}
	}
}
