package plugins

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

var wireCases = []*wireMsg{
	{Op: opCall, ID: 1, Tool: "echo", Args: json.RawMessage(`{"text":"hi"}`)},
	{Op: opCall, ID: 18446744073709551615, Tool: "t", Args: json.RawMessage("{\n  \"a\": [1, 2],\n  \"b\": \"x\\ny\"\n}")},
	{Op: opCall, ID: 3, Tool: "no_args"},
	{Op: opCall, ID: 4, Tool: "wéird\"tool", Args: json.RawMessage(`[]`)},
	{Op: opCall, ID: 0, Tool: "zero"},
	{Op: opResult, ID: 2, Result: &cerebellum.Result{Content: "ok notes"}, Logs: 3},
	{Op: opResult, ID: 2, Result: &cerebellum.Result{Content: "", IsError: true, Truncated: true}},
	{Op: opResult, ID: 5, Result: &cerebellum.Result{Content: "quote \" back \\ nl \n <&> é \u2028 \xff"}},
	{Op: opResult, ID: 6, Result: &cerebellum.Result{Content: "héllo <b>"}, Logs: 1},
	{Op: opResult, ID: 7, Result: &cerebellum.Result{Content: "img", Images: []cerebellum.Image{{MIMEType: "image/png", Data: []byte{1, 2}}}}},
	{Op: opResult, ID: 8, Err: &wireError{Msg: "boom", Kinds: []string{"panic"}}, Restart: true},
	{Op: opCancel, ID: 9},
	{Op: opSecret, ID: 10, Name: "API_KEY", Value: "v"},
	{Op: opLoaded, ID: 11},
}

// The fast shapes of call and result lines read back as encoding/json
// reads them, and what encoding/json writes reads back the same.
func TestWireFastAgreesWithEncodingJSON(t *testing.T) {
	fast := 0
	for _, m := range wireCases {
		line, err := encodeMsg(nil, m)
		if err != nil {
			t.Fatalf("%+v: %v", m, err)
		}
		if strings.ContainsAny(string(line), "\n\r") {
			t.Errorf("%s: a line break inside a line", line)
		}
		var viaJSON, viaFast wireMsg
		if err := json.Unmarshal(line, &viaJSON); err != nil {
			t.Fatalf("%s: encoding/json cannot read it: %v", line, err)
		}
		if err := decodeMsg(line, &viaFast); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if !reflect.DeepEqual(viaFast, viaJSON) {
			t.Errorf("%s:\n fast %+v\n json %+v", line, viaFast, viaJSON)
		}
		std, _ := json.Marshal(m)
		var fromStd wireMsg
		if err := decodeMsg(std, &fromStd); err != nil || !reflect.DeepEqual(fromStd, viaJSON) {
			t.Errorf("%s (encoding/json): %+v, %v; want %+v", std, fromStd, err, viaJSON)
		}
		var probe wireMsg
		if decodeCall(line, &probe) || decodeResult(line, &probe) {
			fast++
		}
	}
	if fast < 6 {
		t.Errorf("only %d lines took a fast path", fast)
	}
}

func FuzzDecodeMsg(f *testing.F) {
	for _, m := range wireCases {
		line, _ := encodeMsg(nil, m)
		f.Add(line)
	}
	f.Add([]byte(`{"op":"call","id":01,"tool":"x"}`))
	f.Add([]byte(`{"op":"result","id":1,"result":{"content":"a"},"logs":2}x`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast, std wireMsg
		errFast := decodeMsg(line, &fast)
		errStd := json.Unmarshal(line, &std)
		if (errFast == nil) != (errStd == nil) {
			t.Fatalf("%q: fast error %v, encoding/json error %v", line, errFast, errStd)
		}
		if errStd == nil && !reflect.DeepEqual(fast, std) {
			t.Fatalf("%q:\n fast %+v\n json %+v", line, fast, std)
		}
	})
}
