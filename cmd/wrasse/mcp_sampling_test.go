package main

import (
	"context"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// A server's request for a completion shows its whole prompt on the
// terminal, and only y or yes lets the model answer it.
func TestApproveSamplingInTerminal(t *testing.T) {
	req := mcp.SampleRequest{Server: "everything", Tool: "trigger-sampling-request", SystemPrompt: "You are a helpful test server.",
		Messages: []mcp.SampleMessage{{Role: "user", Text: "What is the capital of France?"}}}
	for _, tc := range []struct {
		typed string
		want  bool
	}{
		{"y\n", true},
		{"YES\n", true},
		{"\n", false},
		{"n\n", false},
		{"", false}, // end of input
	} {
		t.Run(strings.TrimSpace(tc.typed), func(t *testing.T) {
			var out strings.Builder
			got, err := approveInTerminal(context.Background(), strings.NewReader(tc.typed), &out, req)
			if err != nil || got != tc.want {
				t.Errorf("approve(%q) = %v, %v; want %v", tc.typed, got, err, tc.want)
			}
			for _, want := range []string{"everything asks your model for a completion (during trigger-sampling-request)",
				"[system] You are a helpful test server.", "[user] What is the capital of France?", "[y/N]"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the terminal does not show %q:\n%s", want, out.String())
				}
			}
		})
	}
}
