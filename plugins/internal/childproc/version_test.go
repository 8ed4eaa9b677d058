package childproc

import (
	"errors"
	"strings"
	"testing"
)

// CheckVersion accepts its own version only, and its refusal names both
// versions and what to do.
func TestCheckVersion(t *testing.T) {
	cases := []struct {
		got  int
		want error
	}{{Version, nil}, {Version + 1, ErrVersion}, {Version - 1, ErrVersion}, {0, ErrVersion}}
	for _, tc := range cases {
		err := CheckVersion(tc.got)
		if !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
			t.Errorf("CheckVersion(%d) = %v; want %v", tc.got, err, tc.want)
			continue
		}
		if err != nil && !strings.Contains(err.Error(), "restart Wrasse") {
			t.Errorf("CheckVersion(%d) = %q; want it to say to restart Wrasse", tc.got, err)
		}
	}
}
