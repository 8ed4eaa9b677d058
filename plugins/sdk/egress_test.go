package sdk

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestCheckHost(t *testing.T) {
	allowOnly := func(ctx context.Context, rawURL string) error {
		if rawURL == "https://ok.example/x" {
			return nil
		}
		return fmt.Errorf("%w: %s", ErrHostNotAllowed, rawURL)
	}
	cases := []struct {
		name    string
		ctx     context.Context
		url     string
		allowed bool
	}{
		{"no check installed fails closed", context.Background(), "https://ok.example/x", false},
		{"nil check fails closed", WithHostCheck(context.Background(), nil), "https://ok.example/x", false},
		{"check allows", WithHostCheck(context.Background(), allowOnly), "https://ok.example/x", true},
		{"check refuses", WithHostCheck(context.Background(), allowOnly), "https://evil.example/", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckHost(c.ctx, c.url)
			if c.allowed != (err == nil) {
				t.Fatalf("CheckHost(%q) = %v, want allowed=%v", c.url, err, c.allowed)
			}
			if err != nil && !errors.Is(err, ErrHostNotAllowed) {
				t.Fatalf("refusal %v does not wrap ErrHostNotAllowed", err)
			}
		})
	}
}
