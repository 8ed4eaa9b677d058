package plugins

import (
	"encoding/json"
	"fmt"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// outcome is a handler's answer turned into text inside the guarded call,
// because both err.Error() and json.Marshal may run interpreted code.
type outcome struct {
	content string
	isError bool
	// jsonErr is set when a JSON result could not be encoded.
	jsonErr string
}

func toOutcome(res *sdk.Result, err error) outcome {
	if err != nil {
		msg := err.Error()
		if msg == "" {
			msg = "the tool failed without a message"
		}
		return outcome{content: msg, isError: true}
	}
	if res == nil {
		return outcome{}
	}
	if res.JSON != nil {
		b, err := json.Marshal(res.JSON)
		if err != nil {
			return outcome{jsonErr: err.Error()}
		}
		return outcome{content: string(b)}
	}
	return outcome{content: res.Text}
}

// finish turns an outcome into the call's result. The registry checks it
// against the tool's outputSchema and cuts it (Registry.Run), as it does
// every runtime's.
func (r *pluginRuntime) finish(t *toolSpec, o outcome) cerebellum.Result {
	if o.jsonErr != "" {
		r.log.Warn("plugin result is not JSON-encodable", "tool", t.name, "err", o.jsonErr)
		return cerebellum.Result{IsError: true, Content: fmt.Sprintf(
			"plugin error: %s returned a result that cannot be encoded as JSON (%s); the plugin needs fixing", t.name, o.jsonErr)}
	}
	return cerebellum.Result{Content: o.content, IsError: o.isError}
}
