package providertest

import (
	"encoding/json"
	"strings"
)

// bytesPerToken is the fake tokenizer: one token per four bytes of the
// rendered prompt, about what real tokenizers give English and JSON.
const bytesPerToken = 4

// keepTokens are the tokens at the very start Ollama's runner keeps when
// it cuts a prompt (num_keep's default).
const keepTokens = 4

func tokens(s string) int { return (len(s) + bytesPerToken - 1) / bytesPerToken }

// prompt is a request rendered the way a chat template renders it: the
// system prompt and the tool schemas first, then each message.
type prompt struct {
	head string
	msgs []string
	tail string
}

func (p prompt) from(i int) string {
	return p.head + strings.Join(p.msgs[i:], "") + p.tail
}

// render renders r's system prompt, tools and messages.
func render(r Request) prompt {
	var head strings.Builder
	if r.System != "" {
		head.WriteString("<|system|>\n" + r.System + "\n")
	}
	if len(r.Tools) > 0 {
		type tool struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters,omitempty"`
		}
		list := make([]tool, 0, len(r.Tools))
		for _, t := range r.Tools {
			list = append(list, tool{t.Name, t.Description, t.Parameters})
		}
		b, _ := json.Marshal(list)
		head.WriteString("<|tools|>\n" + string(b) + "\n")
	}
	p := prompt{head: head.String(), tail: "<|assistant|>\n"}
	for _, m := range r.Messages {
		var b strings.Builder
		b.WriteString("<|" + m.Role + "|>\n" + m.Content)
		for _, c := range m.ToolCalls {
			b.WriteString(`{"name":"` + c.Name + `","arguments":` + c.Arguments + "}")
		}
		b.WriteString("\n")
		p.msgs = append(p.msgs, b.String())
	}
	return p
}

// fit fits p into numCtx tokens as Ollama does: whole messages from the
// oldest are left out until it fits (the system prompt, the tools and the
// last message always stay), then, when still too long, tokens are cut
// after the first keepTokens. Without truncate nothing is left out and a
// prompt that does not fit is refused (ok false).
func fit(p prompt, numCtx int, truncate bool) (Seen, bool) {
	full := tokens(p.from(0))
	start := 0
	if truncate {
		for i := 0; i < len(p.msgs); i++ {
			start = i
			if tokens(p.from(i)) <= numCtx || i == len(p.msgs)-1 {
				break
			}
		}
	}
	text := p.from(start)
	seen := Seen{Prompt: text, Full: full, DroppedMessages: start}
	n := tokens(text)
	if n > numCtx {
		if !truncate {
			seen.Tokens = n
			return seen, false
		}
		discard := n - numCtx
		cut := min(keepTokens*bytesPerToken+discard*bytesPerToken, len(text))
		text = text[:keepTokens*bytesPerToken] + text[cut:]
		seen.Prompt, seen.CutTokens = text, discard
		n = tokens(text)
	}
	seen.Tokens = n
	return seen, true
}

// SawSystem reports whether the model saw the whole of system.
func (s Seen) SawSystem(system string) bool {
	return strings.Contains(s.Prompt, "<|system|>\n"+system+"\n")
}

// SawTool reports whether the model saw the schema of the tool named
// name (its name as the template renders it).
func (s Seen) SawTool(name string) bool {
	return strings.Contains(s.Prompt, `{"name":"`+name+`"`) && strings.Contains(s.Prompt, "<|tools|>\n")
}
