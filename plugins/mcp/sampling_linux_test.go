package mcp

//lint:file-ignore SA1019 MCP sampling is deprecated from protocol 2026-07-28 on and still what servers of earlier versions use

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// samplerFunc is a Sampler from a function.
type samplerFunc func(ctx context.Context, req SampleRequest) (SampleResult, error)

func (f samplerFunc) Sample(ctx context.Context, req SampleRequest) (SampleResult, error) {
	return f(ctx, req)
}

// TestSamplingAgainstTheReferenceServer has server-everything ask for a
// completion during a call of a conversation: the request reaches the
// Sampler with its prompt, the conversation and the call's tool, and the
// answer goes back to the server, which returns it in its result; a
// declined request is an error to the server. Without a Sampler, Wrasse
// advertises no sampling, and the server offers no tool that samples.
func TestSamplingAgainstTheReferenceServer(t *testing.T) {
	t.Run("no sampler", func(t *testing.T) {
		reg := everythingRegistry(t, Options{}, &wireLog{})
		if _, _, ok := reg.Snapshot().Tool("everything__trigger-sampling-request"); ok {
			t.Error("the server offers its sampling tool: Wrasse advertised sampling without a sampler")
		}
	})
	var mu sync.Mutex
	var asked []SampleRequest
	decline := false
	reg := everythingRegistry(t, Options{Sampler: samplerFunc(func(_ context.Context, req SampleRequest) (SampleResult, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, req)
		if decline {
			return SampleResult{}, fmt.Errorf("%w by the person", ErrSamplingDeclined)
		}
		return SampleResult{Text: "Paris is the capital.", Model: "test-model", StopReason: "endTurn"}, nil
	})}, &wireLog{})
	sess := reg.NewSession("conv-3", nil)
	for _, tc := range []struct {
		name     string
		decline  bool
		isError  bool
		contains string
	}{
		{"approved", false, false, "Paris is the capital."},
		{"declined", true, true, "declined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			decline, asked = tc.decline, nil
			mu.Unlock()
			res, err := reg.Call(t.Context(), sess, "everything__trigger-sampling-request", json.RawMessage(`{"prompt":"What is the capital of France?","maxTokens":50}`))
			if err != nil || res.IsError != tc.isError || !strings.Contains(res.Content, tc.contains) {
				t.Fatalf("call = %+v, %v; want isError %v containing %q", res, err, tc.isError, tc.contains)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 1 {
				t.Fatalf("the sampler was asked %d times, want once", len(asked))
			}
			r := asked[0]
			if r.Server != "everything" || r.Conversation != "conv-3" || r.Tool != "trigger-sampling-request" || r.MaxTokens != 50 ||
				r.SystemPrompt == "" || len(r.Messages) != 1 || r.Messages[0].Role != "user" || !strings.Contains(r.Messages[0].Text, "What is the capital of France?") {
				t.Errorf("request %+v", r)
			}
		})
	}
}

func TestSampleRequestRefusesWhatItCannotShow(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  string
		err  error
	}{
		{"text", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}`, nil},
		{"an image", `{"messages":[{"role":"user","content":{"type":"image","data":"AAAA","mimeType":"image/png"}}],"maxTokens":5}`, ErrBadSampling},
		{"no messages", `{"messages":[],"maxTokens":5}`, ErrBadSampling},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p sdk.CreateMessageParams
			if err := json.Unmarshal([]byte(tc.raw), &p); err != nil {
				t.Fatal(err)
			}
			_, err := sampleRequestOf("s", &p)
			if !errors.Is(err, tc.err) && (err != nil || tc.err != nil) {
				t.Errorf("err = %v, want %v", err, tc.err)
			}
		})
	}
}
