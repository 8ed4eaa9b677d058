package codemode

import (
	"context"
	"encoding/json"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func schemaFixtures(t *testing.T) []Tool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "schemas.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw []struct {
		Name, Description string
		Parameters        json.RawMessage
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var tools []Tool
	for _, r := range raw {
		p := r.Parameters
		if string(p) == "null" {
			p = nil
		}
		tools = append(tools, Tool{Name: r.Name, Description: r.Description, Parameters: p})
	}
	return tools
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", name, got)
	}
}

// Required and optional fields, enums, nested objects, arrays of objects,
// untyped values and awkward names: the generated Go matches the golden
// file, compiles under the interpreter, and a program using it sends the
// arguments the schema describes.
func TestGenerate(t *testing.T) {
	tools := schemaFixtures(t)
	golden(t, "generated.go.txt", Generate(tools))
	golden(t, "signatures.txt", Signatures(tools))

	src := `package main

func main() {
	notes_find(NotesFindArgs{Query: "tax", Limit: 3, Order: "newest", Tags: []string{"a", "b"},
		Range: NotesFindArgsRange{From: "2026-01-01", Zone: NotesFindArgsRangeZone{Name: "UTC", OffsetMinutes: 60}},
		Filters: []NotesFindArgsFiltersItem{{Field: "kind", Value: 2}}, Extra: map[string]any{"k": true}, Anything: []int{1}})
	notes_find(NotesFindArgs{Query: "only the required"})
	get_weather_now(GetWeatherNowArgs{City: "Oslo", CityName: "x", CityName_: "y"})
	len_(LenArgs{})
	search_(SearchArgs{Q: "shadowed"})
	raw_tool(RawToolArgs{})
	odd_schema(map[string]any{"v": 1})
	fmt.Println(len("four"))
}
`
	var calls []string
	res, err := (&Runner{}).Run(context.Background(), Program{Source: src, Tools: tools}, func(_ context.Context, tool string, args json.RawMessage) (string, error) {
		calls = append(calls, tool+" "+string(args))
		return "", nil
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, assemble(src, tools).run)
	}
	if res.Output != "4\n" {
		t.Errorf("output %q", res.Output)
	}
	golden(t, "calls.txt", strings.Join(calls, "\n")+"\n")
}

// The program's line numbers hold after assembly, with or without a
// package clause or imports.
func TestAssembleKeepsLines(t *testing.T) {
	for _, src := range []string{
		"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n\tx()\n}\n",
		"func main() {\n\tfmt.Println(strings.ToUpper(\"a\"))\n\tx()\n}\n",
		"package main // a comment\nfunc main() {\n\tx()\n}\n",
	} {
		a := assemble(src, nil)
		want := strings.Split(strings.TrimRight(src, "\n"), "\n")
		for _, text := range []string{a.checked, a.run} {
			got := strings.Split(text, "\n")
			for i := 1; i < len(want); i++ {
				if got[i] != want[i] {
					t.Errorf("line %d of %q became %q", i+1, want[i], got[i])
				}
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "main.go", text, 0); err != nil && text == a.checked {
				t.Errorf("assembled %q does not parse: %v", text, err)
			}
		}
	}
}

// Schemas come from SKILL.md files and MCP servers: whatever they say,
// the generated declarations parse as Go.
func FuzzGenerate(f *testing.F) {
	f.Add("t_1", `{"type":"object","properties":{"a":{"type":"string"},"b b":{"type":"array","items":{"type":"object","properties":{"c":{}}}}},"required":["a"]}`)
	f.Add("1-x", `{"type":["object","null"],"properties":{"":{"type":"integer","enum":["\u0000","*/"]}}}`)
	f.Add("é", `{"properties":{"x":{"properties":{"y":{"properties":{"z":{"type":"boolean","description":"*/ \n // x"}}}}}}}`)
	f.Fuzz(func(t *testing.T, name, schema string) {
		src := "package main\n" + Generate([]Tool{{Name: name, Description: schema, Parameters: json.RawMessage(schema)}}) +
			"\nvar wrasseTools__ struct{ Call func(string, any) (string, error) }\n"
		if _, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, 0); err != nil {
			t.Fatalf("generated code does not parse: %v\n%s", err, src)
		}
		_ = Signatures([]Tool{{Name: name, Parameters: json.RawMessage(schema)}})
	})
}

// Programs come from the model: assembling any text never fails, and one
// that parses still parses with the bridge and the declarations added.
func FuzzAssemble(f *testing.F) {
	f.Add("package main\nfunc main() {}\n")
	f.Add("func main() { fmt.Println(json.Valid(nil)) }")
	f.Add("package main /* x */ ; import \"fmt\"\nfunc main(){fmt.Println()}")
	f.Add("packag")
	f.Fuzz(func(t *testing.T, src string) {
		a := assemble(src, testTools)
		fset := token.NewFileSet()
		if _, err := parser.ParseFile(fset, "main.go", a.checked, 0); err != nil {
			return
		}
		if _, err := parser.ParseFile(fset, "main.go", a.run, 0); err != nil {
			t.Fatalf("checked text parses, run text does not: %v\n%s", err, a.run)
		}
	})
}
