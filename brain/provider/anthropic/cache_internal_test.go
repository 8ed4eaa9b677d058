package anthropic

import "testing"

func TestDeferredByName(t *testing.T) {
	tests := []struct {
		model string
		want  bool
	}{
		{"claude-sonnet-4-5", true},
		{"claude-sonnet-4-5-20250929", true},
		{"claude-opus-4-5-20251101", true},
		{"claude-opus-4-6", true},
		{"claude-haiku-4-5", true},
		{"claude-sonnet-5", true},
		{"anthropic.claude-sonnet-4-5-20250929-v1:0", true}, // Bedrock
		{"Claude-Opus-4-5", true},
		{"claude-sonnet-4-20250514", false}, // 4.0: the date is not a minor version
		{"claude-opus-4-1", false},
		{"claude-opus-4", false},
		{"claude-3-5-sonnet-20241022", false},
		{"claude-3-7-sonnet-latest", false},
		{"my-gateway-alias", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := deferredByName(tt.model); got != tt.want {
			t.Errorf("deferredByName(%q) = %v, want %v", tt.model, got, tt.want)
		}
	}
}

func TestRefusesDeferred(t *testing.T) {
	tests := []struct {
		status int
		body   string
		want   bool
	}{
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"tools.3.custom.defer_loading: Extra inputs are not permitted"}}`, true},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages.2.content.0.tool_result.content.1: unknown type tool_reference"}}`, true},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: must be positive"}}`, false},
		{500, `defer_loading`, false},
	}
	for _, tt := range tests {
		if got := refusesDeferred(tt.status, []byte(tt.body)); got != tt.want {
			t.Errorf("refusesDeferred(%d, %s) = %v, want %v", tt.status, tt.body, got, tt.want)
		}
	}
}
