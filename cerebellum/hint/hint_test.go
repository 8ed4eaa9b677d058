package hint

import (
	"errors"
	"fmt"
	"testing"
)

func TestOfFindsWrappedHint(t *testing.T) {
	base := errors.New("shell needs exec")
	h := Hint{Action: "Grant exec to shell", Command: []string{"caps", "enable", "shell", "--grant", "exec"}, Page: PageCapabilities, Target: "shell"}
	err := fmt.Errorf("calling shell_exec: %w", With(base, h))
	got, ok := Of(err)
	if !ok || got.Action != h.Action || got.Target != "shell" {
		t.Fatalf("Of = %+v, %v; want %+v", got, ok, h)
	}
	if !errors.Is(err, base) {
		t.Fatal("the hint hides the wrapped error from errors.Is")
	}
	if err.Error() != "calling shell_exec: shell needs exec" {
		t.Fatalf("text changed: %q", err.Error())
	}
	if _, ok := Of(base); ok {
		t.Fatal("a plain error has no hint")
	}
	if With(nil, h) != nil {
		t.Fatal("With(nil) must stay nil")
	}
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		cmd  []string
		want string
	}{
		{nil, ""},
		{[]string{"caps", "enable", "shell"}, "wrasse caps enable shell"},
		{[]string{"config", "set", "baseURL", "http://x/v1"}, "wrasse config set baseURL http://x/v1"},
		{[]string{"chat", "it's here"}, `wrasse chat 'it'\''s here'`},
		{[]string{"caps", "set", "web", "allowedHosts", ""}, "wrasse caps set web allowedHosts ''"},
	}
	for _, tt := range tests {
		if got := (Hint{Command: tt.cmd}).CommandLine(); got != tt.want {
			t.Errorf("CommandLine(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}
