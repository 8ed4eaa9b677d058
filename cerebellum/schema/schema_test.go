package schema

import (
	"errors"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","properties":{"path":{"type":"string"},"n":{"type":"integer","minimum":1}},"required":["path"],"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args string
		want       []string // substrings of the error; nil means valid
	}{
		{"valid", `{"path":"a","n":2}`, nil},
		{"empty args are an empty object", ``, []string{"missing property 'path'"}},
		{"missing required", `{}`, []string{"missing property 'path'"}},
		{"wrong type", `{"path":3}`, []string{"/path", "want string"}},
		{"below minimum", `{"path":"a","n":0}`, []string{"/n", "minimum"}},
		{"extra field", `{"path":"a","x":1}`, []string{"additional properties 'x'"}},
		{"not json", `{"path":`, []string{"not valid JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate([]byte(tt.args))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("want ErrInvalid, got %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestCompileRejectsBadSchema(t *testing.T) {
	for _, raw := range []string{`{"type":"strin"}`, `{"type":"object","required":"x"}`, `not json`} {
		if _, err := Compile([]byte(raw)); !errors.Is(err, ErrBadSchema) {
			t.Errorf("Compile(%s) = %v, want ErrBadSchema", raw, err)
		}
	}
}
