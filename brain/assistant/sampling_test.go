package assistant

import (
	"context"
	"errors"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// answerSampling is a person who answers every request for a completion
// the same way, and remembers what was shown.
type answerSampling struct {
	mcp.Asker
	allow bool
	shown []mcp.SampleRequest
}

func (s *answerSampling) ApproveSampling(_ context.Context, req mcp.SampleRequest) (bool, error) {
	s.shown = append(s.shown, req)
	return s.allow, nil
}

// A server's request for a completion reaches the model only after the
// person allowed it, with the prompt as sent and the server's token cap
// (bounded by maxSampleTokens); a denied one never reaches the model and
// is an error for the server.
func TestSamplingAnswersWithTheModelOnlyWhenAllowed(t *testing.T) {
	req := mcp.SampleRequest{Server: "everything", SystemPrompt: "Be brief.", MaxTokens: 100,
		Messages: []mcp.SampleMessage{{Role: "user", Text: "What is 2+2?"}, {Role: "assistant", Text: "Let me see."}, {Role: "user", Text: "Just the number."}}}
	for _, tc := range []struct {
		name  string
		allow bool
	}{{"allowed", true}, {"denied", false}} {
		t.Run(tc.name, func(t *testing.T) {
			a := openTest(t)
			m := providertest.NewModel(t, providertest.OpenAI)
			m.Reply(providertest.Text("4"))
			useModel(t, a, m, "small-model")
			person := &answerSampling{allow: tc.allow}
			s := a.mcpSampler(person)
			if s == nil {
				t.Fatal("no sampler for an asker that approves sampling: sampling would not be advertised")
			}
			res, err := s.Sample(t.Context(), req)
			if len(person.shown) != 1 || len(person.shown[0].Messages) != 3 {
				t.Fatalf("the person was shown %+v; want the request once, with its 3 messages", person.shown)
			}
			if !tc.allow {
				if !errors.Is(err, mcp.ErrSamplingDeclined) {
					t.Errorf("denied: err = %v; want ErrSamplingDeclined", err)
				}
				if n := len(m.Requests()); n != 0 {
					t.Errorf("denied: the model got %d requests; want none", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != "4" || res.Model != "small-model" || res.StopReason != "endTurn" {
				t.Errorf("result = %+v; want the model's text 4 from small-model, endTurn", res)
			}
			reqs := m.Requests()
			if len(reqs) != 1 {
				t.Fatalf("the model got %d requests; want 1", len(reqs))
			}
			got := reqs[0]
			if got.System != "Be brief." || got.MaxTokens != 100 || len(got.Messages) != 3 || got.Messages[2].Content != "Just the number." {
				t.Errorf("the model was asked system=%q max=%d messages=%+v; want the server's prompt as sent, capped at 100", got.System, got.MaxTokens, got.Messages)
			}
		})
	}
}

// Without an asker that can show a request for a completion there is no
// sampler, so Wrasse does not offer sampling to servers at all.
func TestNoSamplerWithoutAnApprover(t *testing.T) {
	a := openTest(t)
	if s := a.mcpSampler(nil); s != nil {
		t.Errorf("mcpSampler(nil) = %v; want nil", s)
	}
}
