package plugins

import (
	"errors"
	"strings"
	"testing"
)

// A plugin process refuses a load from a host speaking another protocol
// version, saying what to do.
func TestChildRefusesOtherProtocolVersion(t *testing.T) {
	s := &childServer{log: discard()}
	_, err := s.start(t.Context(), &wireLoad{Version: protocolVersion + 1, Name: "x"})
	if !errors.Is(err, ErrInit) || !strings.Contains(err.Error(), "restart Wrasse") {
		t.Fatalf("start = %v; want a protocol version error", err)
	}
}
