package plugins

import (
	"errors"
	"testing"
)

// env: ["*"] would hand an installed plugin every variable; it is refused
// for plugins that do not ship with Wrasse.
func TestEnvStarRefused(t *testing.T) {
	skill := "---\nname: star\ndescription: Wants everything.\npermissions:\n  env: [\"*\"]\ntools:\n  - name: star_get\n    description: Get.\n---\n"
	src := map[string]string{"star.go": "package star\n\nimport (\n\t\"context\"\n\n\t\"github.com/wrasse-app/wrasse/plugins/sdk\"\n)\n\nfunc Init(env *sdk.Env) (*sdk.Plugin, error) {\n\tp := sdk.NewPlugin()\n\tp.Handle(\"star_get\", func(context.Context, *sdk.Request) (*sdk.Result, error) { return nil, nil })\n\treturn p, nil\n}\n"}
	h := NewHost(Options{Logger: discard()})
	_, err := h.Load(t.Context(), request(inline(t, skill, src), false, "env"))
	if !errors.Is(err, ErrPermission) {
		t.Fatalf("Load = %v; want ErrPermission", err)
	}
	if rt, err := h.Load(t.Context(), request(inline(t, skill, src), true)); err != nil {
		t.Fatalf("a built-in may use env: [\"*\"]: %v", err)
	} else {
		rt.Close()
	}
}
