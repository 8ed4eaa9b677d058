package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// The terminal reads every field type a server may ask for, the multiple
// choice (an array of strings from an enum) included: typed as a comma-
// separated list, it went to the server as one string before.
func TestParseField(t *testing.T) {
	one, two := 1, 2
	multi := mcp.Field{Name: "days", Type: "array", Enum: []string{"mon", "tue", "wed"}, MinItems: &one, MaxItems: &two}
	for _, tc := range []struct {
		name    string
		f       mcp.Field
		in      string
		want    any
		wantErr string
	}{
		{"yes", mcp.Field{Type: "boolean"}, "Y", true, ""},
		{"not a bool", mcp.Field{Type: "boolean"}, "maybe", nil, "y or n"},
		{"integer", mcp.Field{Type: "integer"}, "42", int64(42), ""},
		{"not an integer", mcp.Field{Type: "integer"}, "4.2", nil, "whole number"},
		{"number", mcp.Field{Type: "number"}, "4.5", 4.5, ""},
		{"enum", mcp.Field{Type: "string", Enum: []string{"a", "b"}}, "b", "b", ""},
		{"not in enum", mcp.Field{Type: "string", Enum: []string{"a", "b"}}, "c", nil, "one of a, b"},
		{"text", mcp.Field{Type: "string"}, "hello, world", "hello, world", ""},
		{"choices", multi, "mon, wed", []string{"mon", "wed"}, ""},
		{"one choice", multi, "tue", []string{"tue"}, ""},
		{"unknown choice", multi, "mon, fri", nil, `"fri" is not a choice`},
		{"twice", multi, "mon,mon", nil, "chosen twice"},
		{"too many", multi, "mon,tue,wed", nil, "at most 2"},
		{"too few", multi, " , ", nil, "at least 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseField(tc.f, tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("parseField(%q) = %v, %v; want an error with %q", tc.in, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("parseField(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
			}
		})
	}
	if p := fieldPrompt(multi); !strings.Contains(p, "any of mon, tue, wed, separated by commas") {
		t.Errorf("fieldPrompt = %q; want the choices and how to type several", p)
	}
}
