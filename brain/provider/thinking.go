package provider

import (
	"fmt"
	"strings"
)

// ThinkingBlock is one block of a model's reasoning as the server sent it.
type ThinkingBlock struct {
	// Text is the reasoning (empty for a redacted block).
	Text string `json:"text,omitempty"`
	// Signature is Anthropic's signature of the block; a request that
	// sends the block back within its tool-use turn must carry it
	// unchanged.
	Signature string `json:"signature,omitempty"`
	// Redacted is the encrypted data of a block the server withheld
	// (Anthropic's redacted_thinking); it too goes back unchanged.
	Redacted string `json:"redacted,omitempty"`
}

// ThinkingMode is a model's thinking setting (config key thinking).
type ThinkingMode string

const (
	// ThinkAuto (empty) leaves it to the server and the model.
	ThinkAuto ThinkingMode = ""
	// ThinkOn asks a thinking model to think: Ollama think:true,
	// Anthropic extended thinking with the configured budget.
	ThinkOn ThinkingMode = "on"
	// ThinkOff asks it not to, where the server allows (Ollama
	// think:false, Anthropic without thinking).
	ThinkOff ThinkingMode = "off"
	// ThinkLow, ThinkMedium and ThinkHigh ask for that much reasoning:
	// reasoning_effort on OpenAI-compatible servers, Ollama's think level
	// (gpt-oss), and for Anthropic a quarter, half or all of the budget.
	ThinkLow    ThinkingMode = "low"
	ThinkMedium ThinkingMode = "medium"
	ThinkHigh   ThinkingMode = "high"
)

// ParseThinking accepts auto (or ""), on, off, low, medium and high.
func ParseThinking(s string) (ThinkingMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return ThinkAuto, nil
	case "on", "true", "yes":
		return ThinkOn, nil
	case "off", "false", "no":
		return ThinkOff, nil
	case "low":
		return ThinkLow, nil
	case "medium":
		return ThinkMedium, nil
	case "high":
		return ThinkHigh, nil
	}
	return ThinkAuto, fmt.Errorf("thinking %q is not auto, on, off, low, medium or high", s)
}

// Enabled reports whether the mode asks for thinking.
func (m ThinkingMode) Enabled() bool { return m != ThinkAuto && m != ThinkOff }

// Effort is the reasoning effort the mode names ("low", "medium",
// "high"), "" for auto, on and off.
func (m ThinkingMode) Effort() string {
	switch m {
	case ThinkLow, ThinkMedium, ThinkHigh:
		return string(m)
	}
	return ""
}
