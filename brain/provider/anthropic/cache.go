package anthropic

import (
	"regexp"
	"strconv"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Prompt caching. The Messages API caches a request's prefix in the order
// tools, system, messages, up to the cache_control breakpoints it carries
// (at most four). A request carries three: on the last tool it declares
// that is not deferred, on the system prompt and on the newest message's
// last block, so the next request of the conversation reads everything up
// to the newest message of this one.
//
// Deferred tools: when a model supports them (deferredByName, unless the
// provider saw it refuse them), every tool the conversation may load is
// declared with defer_loading and stays out of the prompt until a
// tool_result references it with a tool_reference block. Loading a
// capability then adds references to the result that loaded it and changes
// nothing before it. A 400 that names defer_loading or tool_reference
// marks the model as not supporting them and the request is sent again the
// plain way: the loaded tools in the tools array, references dropped.

// claudeVersion matches a Claude model's family and version in its ID:
// "claude-sonnet-4-5-20250929", "anthropic.claude-opus-4-6-v1:0",
// "claude-haiku-4-5". The older "claude-3-5-sonnet-…" naming puts the
// number first and does not match.
var claudeVersion = regexp.MustCompile(`claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:\D|$)`)

// deferredByName reports whether model supports deferred tools by its
// name: Claude Opus, Sonnet and Haiku 4.5 and later (the models Anthropic
// documents tool search for). Any other name, including a gateway's alias,
// is sent the plain way.
func deferredByName(model string) bool {
	m := claudeVersion.FindStringSubmatch(strings.ToLower(model))
	if m == nil {
		return false
	}
	major, _ := strconv.Atoi(m[2])
	minor := 0
	if m[3] != "" {
		minor, _ = strconv.Atoi(m[3])
	}
	return major > 4 || major == 4 && minor >= 5
}

// useDeferred decides whether req goes the deferred way for model.
func (p *Provider) useDeferred(req provider.Request, model string) bool {
	if p.noDefer || len(req.Deferrable) == 0 || !deferredByName(model) {
		return false
	}
	if _, refused := p.noDeferModels.Load(model); refused {
		return false
	}
	// The API wants at least one tool that is not deferred.
	for _, t := range req.Tools {
		if !t.Loadable {
			return true
		}
	}
	return false
}

// refusesDeferred reports whether a 400 body says the model or endpoint
// does not take deferred tools or tool references.
func refusesDeferred(status int, body []byte) bool {
	if status != 400 {
		return false
	}
	b := strings.ToLower(string(body))
	return strings.Contains(b, "defer_loading") || strings.Contains(b, "tool_reference") || strings.Contains(b, "deferred tool")
}

// toolParams maps the request's tools: the plain way, Tools as given; the
// deferred way, Tools that are not Loadable (or that no message
// references), then every other Deferrable tool (and any referenced loaded
// one missing from it) with defer_loading. The last tool
// that is not deferred carries a breakpoint. It returns the names declared
// as deferred.
func (p *Provider) toolParams(req provider.Request, deferred bool) ([]sdk.ToolUnionParam, map[string]bool, error) {
	var out []sdk.ToolUnionParam
	add := func(t provider.Tool, deferLoading bool) error {
		schema, err := schemaOf(t)
		if err != nil {
			return err
		}
		tool := &sdk.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tool.Description = param.NewOpt(t.Description)
		}
		if deferLoading {
			tool.DeferLoading = param.NewOpt(true)
		}
		out = append(out, sdk.ToolUnionParam{OfTool: tool})
		return nil
	}
	if !deferred {
		for _, t := range req.Tools {
			if err := add(t, false); err != nil {
				return nil, nil, err
			}
		}
		if n := len(out); n > 0 && p.breakpoints() {
			out[n-1].OfTool.CacheControl = sdk.NewCacheControlEphemeralParam()
		}
		return out, nil, nil
	}
	// A loaded tool no result references (the history was trimmed past
	// its load, or it was loaded before references were recorded) would
	// be invisible deferred: it goes with the tools that are not.
	referenced := map[string]bool{}
	for _, m := range req.Messages {
		for _, n := range m.ToolRefs {
			referenced[n] = true
		}
	}
	plain := map[string]bool{}
	for _, t := range req.Tools {
		if !t.Loadable || !referenced[t.Name] {
			plain[t.Name] = true
			if err := add(t, false); err != nil {
				return nil, nil, err
			}
		}
	}
	if n := len(out); n > 0 && p.breakpoints() {
		out[n-1].OfTool.CacheControl = sdk.NewCacheControlEphemeralParam()
	}
	names := map[string]bool{}
	for _, t := range req.Deferrable {
		if !names[t.Name] && !plain[t.Name] {
			names[t.Name] = true
			if err := add(t, true); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, t := range req.Tools {
		if t.Loadable && !names[t.Name] && !plain[t.Name] {
			names[t.Name] = true
			if err := add(t, true); err != nil {
				return nil, nil, err
			}
		}
	}
	return out, names, nil
}

// breakpoints reports whether tools and the newest message carry
// cache_control (the system prompt does unless the cache is off).
func (p *Provider) breakpoints() bool { return !p.noCache && !p.systemOnly }

// addToolRefs appends a tool_reference block, for each declared deferred
// tool a result made callable, to that result's tool_result block.
func addToolRefs(msgs []sdk.MessageParam, in []provider.Message, declared map[string]bool) {
	refs := map[string][]string{}
	for _, m := range in {
		if m.Role == provider.RoleTool && len(m.ToolRefs) > 0 {
			refs[m.ToolCallID] = m.ToolRefs
		}
	}
	if len(refs) == 0 {
		return
	}
	for i := range msgs {
		for j := range msgs[i].Content {
			r := msgs[i].Content[j].OfToolResult
			if r == nil {
				continue
			}
			for _, name := range refs[r.ToolUseID] {
				if declared[name] {
					r.Content = append(r.Content, sdk.ToolResultBlockParamContentUnion{OfToolReference: &sdk.ToolReferenceBlockParam{ToolName: name}})
				}
			}
		}
	}
}

// markNewest puts a breakpoint on the last block of the newest message.
func (p *Provider) markNewest(msgs []sdk.MessageParam) {
	if !p.breakpoints() || len(msgs) == 0 {
		return
	}
	last := msgs[len(msgs)-1].Content
	if len(last) == 0 {
		return
	}
	if cc := last[len(last)-1].GetCacheControl(); cc != nil {
		*cc = sdk.NewCacheControlEphemeralParam()
	}
}
