package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// askerFunc answers questions with a function and records them.
type askerFunc struct {
	mu    sync.Mutex
	asked []Question
	f     func(Question) (Answer, error)
}

func (a *askerFunc) Elicit(_ context.Context, q Question) (Answer, error) {
	a.mu.Lock()
	a.asked = append(a.asked, q)
	a.mu.Unlock()
	return a.f(q)
}

func (a *askerFunc) SigningIn(string, string) {}

// bookingSchema is the form of the conformance suite's SEP-1034
// scenario, plus a required field without a default.
const bookingSchema = `{"type":"object","properties":{
	"name":{"type":"string","description":"User name","default":"John Doe"},
	"age":{"type":"integer","default":30},
	"score":{"type":"number","default":95.5},
	"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},
	"verified":{"type":"boolean","default":true},
	"room":{"type":"string","title":"Room"}},
	"required":["room"]}`

// TestElicitationAnswersWithDefaults has a server ask during a tool call
// and checks what it receives back for each answer the person gives.
func TestElicitationAnswersWithDefaults(t *testing.T) {
	defaults := map[string]any{"name": "John Doe", "age": float64(30), "score": 95.5, "status": "active", "verified": true}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range defaults {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name        string
		asker       Asker // nil: no one to ask
		wantAction  string
		wantContent map[string]any
	}{
		{"no asker declines", nil, ActionDecline, nil},
		{"a partial answer gets the defaults", &askerFunc{f: func(Question) (Answer, error) {
			return Answer{Action: ActionAccept, Content: map[string]any{"room": "4B", "age": 41}}, nil
		}}, ActionAccept, with(map[string]any{"room": "4B", "age": float64(41)})},
		{"decline", &askerFunc{f: func(Question) (Answer, error) { return Answer{Action: ActionDecline}, nil }}, ActionDecline, nil},
		{"cancel", &askerFunc{f: func(Question) (Answer, error) { return Answer{Action: ActionCancel}, nil }}, ActionCancel, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make(chan *sdk.ElicitResult, 1)
			build := func(s *sdk.Server) {
				s.AddTool(&sdk.Tool{Name: "book", InputSchema: json.RawMessage(`{"type":"object"}`)},
					func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
						// Protocol 2026-07-28 asks in the result (multi
						// round-trip, SEP-2322): the client answers and calls again.
						if r, ok := req.Params.InputResponses["room"].(*sdk.ElicitResult); ok {
							got <- r
							return text("booked"), nil
						}
						return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{
							"room": &sdk.ElicitParams{Message: "Which room?", RequestedSchema: json.RawMessage(bookingSchema)}}}, nil
					})
			}
			reg := askEnv(t, build, tt.asker)
			if _, err := call(t, reg, "notes__book", `{}`); err != nil {
				t.Fatal(err)
			}
			var res *sdk.ElicitResult
			select {
			case res = <-got:
			default:
				t.Fatal("the tool returned without asking")
			}
			if res.Action != tt.wantAction || !reflect.DeepEqual(res.Content, tt.wantContent) {
				t.Errorf("server got %s %v; want %s %v", res.Action, res.Content, tt.wantAction, tt.wantContent)
			}
			if a, ok := tt.asker.(*askerFunc); ok {
				if len(a.asked) != 1 || a.asked[0].Server != "notes" || a.asked[0].Message != "Which room?" {
					t.Fatalf("asked %+v", a.asked)
				}
				var names []string
				for _, f := range a.asked[0].Fields {
					names = append(names, f.Name)
				}
				// In name order: the SDK hands the schema over as a map.
				if strings.Join(names, ",") != "age,name,room,score,status,verified" {
					t.Errorf("fields in order %v", names)
				}
			}
		})
	}
}

// askEnv is openEnv with an Asker.
func askEnv(t *testing.T, build func(*sdk.Server), asker Asker) *cerebellum.Registry {
	t.Helper()
	ws := t.TempDir()
	writeCap(t, ws, "notes", notesSkill)
	srv := &inproc{build: build}
	loader := NewLoader(Options{Dial: srv.Dial, Asker: asker, Terminate: 100 * time.Millisecond})
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader},
		Settings: &cerebellum.MemorySettings{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Close() })
	approveAll(t, reg)
	if err := reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestQuestionDefaults(t *testing.T) {
	fields, err := parseFormSchema([]byte(bookingSchema))
	if err != nil {
		t.Fatal(err)
	}
	q := Question{Fields: fields}
	content, ok := q.Defaults()
	if ok || len(content) != 5 {
		t.Errorf("Defaults = %v, %v; want the five defaults and not ok (room is required without one)", content, ok)
	}
	q.Fields = q.Fields[:5]
	if _, ok := q.Defaults(); !ok {
		t.Error("Defaults not ok though no required field lacks a default")
	}
}

func TestParseFormSchema(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		want    []Field
		wantErr bool
	}{
		{name: "empty object", schema: `{"type":"object"}`, want: []Field{}},
		{name: "enum with titles (oneOf)", schema: `{"type":"object","properties":{"c":{"type":"string","oneOf":[{"const":"w","title":"Work"},{"const":"h","title":"Home"}]}},"required":["c"]}`,
			want: []Field{{Name: "c", Type: "string", Enum: []string{"w", "h"}, EnumTitles: []string{"Work", "Home"}, Required: true}}},
		{name: "legacy enumNames", schema: `{"properties":{"c":{"type":"string","enum":["w"],"enumNames":["Work"]}}}`,
			want: []Field{{Name: "c", Type: "string", Enum: []string{"w"}, EnumTitles: []string{"Work"}}}},
		{name: "multiple choice", schema: `{"properties":{"m":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["g","p"]},"default":["g"]}}}`,
			want: []Field{{Name: "m", Type: "array", Enum: []string{"g", "p"}, MinItems: ptrTo(1), MaxItems: ptrTo(2), Default: []any{"g"}}}},
		{name: "multiple choice with titles (anyOf)", schema: `{"properties":{"m":{"type":"array","items":{"anyOf":[{"const":"f1","title":"Tuna"},{"const":"f2","title":"Salmon"}]}}}}`,
			want: []Field{{Name: "m", Type: "array", Enum: []string{"f1", "f2"}, EnumTitles: []string{"Tuna", "Salmon"}}}},
		{name: "array without choices", schema: `{"properties":{"m":{"type":"array","items":{"type":"string"}}}}`, wantErr: true},
		{name: "not an object", schema: `{"type":"array"}`, wantErr: true},
		{name: "nested object field", schema: `{"type":"object","properties":{"x":{"type":"object"}}}`, wantErr: true},
		{name: "properties not an object", schema: `{"type":"object","properties":[1]}`, wantErr: true},
		{name: "not JSON", schema: `{`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseFormSchema([]byte(tt.schema))
			if tt.wantErr {
				if !errors.Is(err, ErrBadElicitation) {
					t.Errorf("err = %v, want ErrBadElicitation", err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

// FuzzParseFormSchema: a server's schema is untrusted input; parsing
// never panics, and what parses has only primitive fields and multiple choices.
func FuzzParseFormSchema(f *testing.F) {
	f.Add([]byte(bookingSchema))
	f.Add([]byte(`{"type":"object","properties":{}}`))
	f.Add([]byte(`{"properties":{"a":{"type":"boolean","default":"x"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fields, err := parseFormSchema(data)
		if err != nil {
			return
		}
		for _, fl := range fields {
			switch fl.Type {
			case "string", "number", "integer", "boolean":
			case "array":
				if len(fl.Enum) == 0 {
					t.Fatalf("array field %q parsed without choices", fl.Name)
				}
			default:
				t.Fatalf("field %q of type %q parsed", fl.Name, fl.Type)
			}
		}
	})
}
