package data

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

const people = `[
 {"name":"Ana","age":34,"city":"Bern","tags":["vip","new"],"address":{"zip":"3011"}},
 {"name":"Ben","age":28,"city":"Basel","tags":[]},
 {"name":"Cleo","age":41,"city":"Bern","tags":["vip"],"email":"cleo@example.com"},
 {"name":"Dan","age":"19","city":"Zug","archived":true},
 {"name":"Eva","age":34,"city":"Basel","tags":["new"]}
]`

const orders = "id,product,qty,price,zip\n1,pen,3,1.5,0800\n2,book,1,20,3000\n3,pen,10,1.5,\n4,ink,2,7.25,3000\n"

func TestInitRegistersDeclaredTools(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := skillmd.Parse(data, skillmd.Options{Folder: "data"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Init(&sdk.Env{Name: "data"})
	if len(m.Tools) != 1 || strings.Join(p.ToolNames(), ",") != m.Tools[0].Name {
		t.Fatalf("registered %v, declared %v", p.ToolNames(), m.Tools)
	}
}

func run(t *testing.T, args map[string]any) (string, error) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "people.json"), []byte(people), 0o644)
	os.WriteFile(filepath.Join(dir, "orders.csv"), []byte(orders), 0o644)
	os.WriteFile(filepath.Join(dir, "log.jsonl"), []byte("{\"lvl\":\"info\",\"ms\":5}\n{\"lvl\":\"error\",\"ms\":50}\n{\"lvl\":\"info\",\"ms\":7}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "wrapped.json"), []byte(`{"meta":{"n":2},"items":[{"a":1},{"a":2}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "t.tsv"), []byte("a\tb\n1\tx\n2\ty\n"), 0o644)
	p, err := Init(&sdk.Env{Name: "data", Roots: []string{dir}, Workspace: filepath.Join(dir, "ws")})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(args)
	req, err := sdk.NewRequest("data_query", raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Handler("data_query")(context.Background(), req)
	if err != nil {
		var te *sdk.ToolError
		if !errors.As(err, &te) {
			t.Errorf("error is not a *sdk.ToolError: %v", err)
		}
		return "", err
	}
	return res.Text, nil
}

func TestQuery(t *testing.T) {
	tests := []struct {
		name    string
		args    map[string]any
		want    string // exact output
		errWant string
	}{
		{name: "where number", args: map[string]any{"path": "people.json", "where": "age > 30", "select": []string{"name"}},
			want: "5 rows read, 3 matched, showing 3\n[\n{\"name\":\"Ana\"},\n{\"name\":\"Cleo\"},\n{\"name\":\"Eva\"}\n]"},
		{name: "numeric string compares as number", args: map[string]any{"path": "people.json", "where": "age < 20", "select": []string{"name"}},
			want: "5 rows read, 1 matched, showing 1\n[\n{\"name\":\"Dan\"}\n]"},
		{name: "and or parens", args: map[string]any{"path": "people.json", "where": `city == "Bern" and (tags contains "new" or age >= 40)`, "select": []string{"name"}},
			want: "5 rows read, 2 matched, showing 2\n[\n{\"name\":\"Ana\"},\n{\"name\":\"Cleo\"}\n]"},
		{name: "not and truthy", args: map[string]any{"path": "people.json", "where": "not archived and email", "select": "name"},
			want: "5 rows read, 1 matched, showing 1\n[\n{\"name\":\"Cleo\"}\n]"},
		{name: "in list", args: map[string]any{"path": "people.json", "where": `city in ["Zug", "Basel"]`, "select": []string{"name"}, "sort_by": []string{"-name"}},
			want: "5 rows read, 3 matched, showing 3\n[\n{\"name\":\"Eva\"},\n{\"name\":\"Dan\"},\n{\"name\":\"Ben\"}\n]"},
		{name: "null and nested", args: map[string]any{"path": "people.json", "where": `address.zip == "3011" or email != null`, "select": []string{"name", "address.zip"}},
			want: "5 rows read, 2 matched, showing 2\n[\n{\"address.zip\":\"3011\",\"name\":\"Ana\"},\n{\"address.zip\":null,\"name\":\"Cleo\"}\n]"},
		{name: "string ops", args: map[string]any{"path": "people.json", "where": `email endswith "EXAMPLE.COM" or name startswith "b" or name matches "^E.a$"`, "select": []string{"name"}},
			want: "5 rows read, 3 matched, showing 3\n[\n{\"name\":\"Ben\"},\n{\"name\":\"Cleo\"},\n{\"name\":\"Eva\"}\n]"},
		{name: "group count sort", args: map[string]any{"path": "people.json", "group_by": []string{"city"}, "aggregate": []string{"count", "avg(age)"}, "sort_by": []string{"-count", "city"}},
			want: "5 rows read, 3 groups, showing 3\n[\n{\"avg(age)\":31,\"city\":\"Basel\",\"count\":2},\n{\"avg(age)\":37.5,\"city\":\"Bern\",\"count\":2},\n{\"avg(age)\":19,\"city\":\"Zug\",\"count\":1}\n]"},
		{name: "aggregate all rows", args: map[string]any{"path": "people.json", "aggregate": []string{"count", "min(age)", "max(name)", "sum(age)"}},
			want: "5 rows read, 1 groups, showing 1\n[\n{\"count\":5,\"max(name)\":\"Eva\",\"min(age)\":\"19\",\"sum(age)\":156}\n]"},
		{name: "csv numbers and zip codes", args: map[string]any{"path": "orders.csv", "where": "price < 10", "output": "csv"},
			want: "4 rows read, 3 matched, showing 3\nid,product,qty,price,zip\n1,pen,3,1.5,0800\n3,pen,10,1.5,\n4,ink,2,7.25,3000"},
		{name: "csv group sum", args: map[string]any{"path": "orders.csv", "group_by": "product", "aggregate": "sum(qty), sum:price", "output": "csv"},
			want: "4 rows read, 3 groups, showing 3\nproduct,sum(qty),sum(price)\npen,13,3\nbook,1,20\nink,2,7.25"},
		{name: "empty cell is null", args: map[string]any{"path": "orders.csv", "where": "zip == null", "select": []string{"id"}},
			want: "4 rows read, 1 matched, showing 1\n[\n{\"id\":3}\n]"},
		{name: "jsonl", args: map[string]any{"path": "log.jsonl", "group_by": []string{"lvl"}, "aggregate": []string{"count", "max(ms)"}},
			want: "3 rows read, 2 groups, showing 2\n[\n{\"count\":2,\"lvl\":\"info\",\"max(ms)\":7},\n{\"count\":1,\"lvl\":\"error\",\"max(ms)\":50}\n]"},
		{name: "wrapped array", args: map[string]any{"path": "wrapped.json", "sort_by": "a desc"},
			want: "2 rows read, showing 2\n[\n{\"a\":2},\n{\"a\":1}\n]"},
		{name: "tsv", args: map[string]any{"path": "t.tsv", "where": "b == 'y'"},
			want: "2 rows read, 1 matched, showing 1\n[\n{\"a\":2,\"b\":\"y\"}\n]"},
		{name: "inline csv", args: map[string]any{"data": "x,y\n1,2\n3,4\n", "aggregate": []string{"sum(x)", "avg(y)"}},
			want: "2 rows read, 1 groups, showing 1\n[\n{\"avg(y)\":3,\"sum(x)\":4}\n]"},
		{name: "inline json values", args: map[string]any{"data": "[3,1,2]", "sort_by": "value", "limit": 2},
			want: "3 rows read, showing 2 (limit 2; raise limit or narrow the query for more)\n[\n{\"value\":1},\n{\"value\":2}\n]"},
		{name: "no match", args: map[string]any{"path": "people.json", "where": "age > 100"},
			want: "5 rows read, 0 matched, showing 0\n[]"},
		{name: "bad where", args: map[string]any{"path": "people.json", "where": "age >"}, errWant: "where: expected a field or value at the end"},
		{name: "bad where column", args: map[string]any{"path": "people.json", "where": "age > 3 city == 1"}, errWant: `unexpected "city" at column 9`},
		{name: "bad aggregate", args: map[string]any{"path": "people.json", "aggregate": []string{"median(age)"}}, errWant: "median is not a known function"},
		{name: "bad output", args: map[string]any{"path": "people.json", "output": "xml"}, errWant: "not supported"},
		{name: "both sources", args: map[string]any{"path": "people.json", "data": "[]"}, errWant: "either path or data"},
		{name: "no source", args: map[string]any{}, errWant: "pass path"},
		{name: "outside", args: map[string]any{"path": "/etc/passwd"}, errWant: "outside the folders"},
		{name: "missing", args: map[string]any{"path": "nope.csv"}, errWant: "does not exist"},
		{name: "broken json", args: map[string]any{"data": "[{\"a\":1},", "format": "json"}, errWant: "cannot read the inline data as json"},
		{name: "not objects", args: map[string]any{"data": "[{\"a\":1}, 2]"}, errWant: "item 2 is not an object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, tc.args)
			if tc.errWant != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errWant) {
					t.Fatalf("error = %v, want %q", err, tc.errWant)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
		})
	}
}

func TestParseWhereErrors(t *testing.T) {
	tests := map[string]string{
		"":                            "empty",
		"(a == 1":                     "expected ) at column 8 to close the ( at column 1",
		`name == "x`:                  "unclosed \" quote starting at column 9",
		"a & b":                       `unexpected "&" at column 3`,
		"a == 1.2.3":                  `"1.2.3" at column 6 is not a number`,
		"a in 3":                      "in needs a list",
		"a in [1, b]":                 "a list holds values",
		`a matches "("`:               "regular expression after matches",
		"a == and":                    `found the keyword "and"`,
		"5":                           "expected a comparison",
		"a == 1 #":                    `unexpected character "#" at column 8`,
		strings.Repeat("(", 60) + "a": "nests deeper than 50",
	}
	for src, want := range tests {
		if _, err := parseWhere(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseWhere(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestEval(t *testing.T) {
	row := map[string]any{"n": 5.0, "s": "abc", "b": true, "l": []any{"x", 2.0}, "o": map[string]any{"k": "v"}, "e": ""}
	tests := map[string]bool{
		"n == 5": true, "n = 5.0": true, "n != 5": false, "n > 4 && n < 6": true, "n >= 5 || false": true,
		`s == "abc"`: true, `s == 'ABC'`: false, `s contains "B"`: true, `s > "abb"`: true,
		"b": true, "not b": false, "! b": false, "b == true": true, "e": false, "missing": false,
		`l contains "x"`: true, "l contains 2": true, `l contains "y"`: false,
		`o.k == "v"`: true, "missing == null": true, "missing > 1": false, "missing != null": false,
		`n in [1, 5]`: true, `s in ["a"]`: false, `"abc" == s`: true, "1 < n": true,
		"n == 5 and s == \"x\" or b": true, "n == 5 and (s == \"x\" or not b)": false,
	}
	for src, want := range tests {
		n, err := parseWhere(src)
		if err != nil {
			t.Errorf("parseWhere(%q): %v", src, err)
			continue
		}
		if got := evalNode(n, row); got != want {
			t.Errorf("%s = %v, want %v", src, got, want)
		}
	}
}

func TestSortRows(t *testing.T) {
	mk := func(vals ...any) []map[string]any {
		var rows []map[string]any
		for i, v := range vals {
			r := map[string]any{"i": float64(i)}
			if v != nil {
				r["v"] = v
			}
			rows = append(rows, r)
		}
		return rows
	}
	order := func(rows []map[string]any) string {
		var b strings.Builder
		for _, r := range rows {
			b.WriteString(toString(r["i"]))
		}
		return b.String()
	}
	tests := []struct {
		name string
		vals []any
		keys []sortKey
		want string
	}{
		{"numbers asc", []any{3.0, -1.0, 2.5, 0.0, -7.25}, []sortKey{{field: "v"}}, "41320"},
		{"numbers desc", []any{3.0, -1.0, 2.5, 0.0, -7.25}, []sortKey{{field: "v", desc: true}}, "02314"},
		{"numeric strings", []any{"10", "9", 100.0}, []sortKey{{field: "v"}}, "102"},
		{"text prefixes asc", []any{"abc", "ab", "b", "a"}, []sortKey{{field: "v"}}, "3102"},
		{"text prefixes desc", []any{"abc", "ab", "b", "a"}, []sortKey{{field: "v", desc: true}}, "2013"},
		{"missing last both ways", []any{nil, 1.0, "x", nil, 0.0}, []sortKey{{field: "v"}}, "41203"},
		{"missing last desc", []any{nil, 1.0, "x", nil, 0.0}, []sortKey{{field: "v", desc: true}}, "21403"},
		{"stable ties", []any{1.0, 1.0, 0.0, 1.0}, []sortKey{{field: "v"}}, "2013"},
	}
	for _, tc := range tests {
		rows := mk(tc.vals...)
		sortRows(rows, tc.keys)
		if got := order(rows); got != tc.want {
			t.Errorf("%s: order %s, want %s", tc.name, got, tc.want)
		}
	}
	rows := []map[string]any{{"a": "x", "b": 2.0}, {"a": "y", "b": 1.0}, {"a": "x", "b": 3.0}}
	sortRows(rows, []sortKey{{field: "a"}, {field: "b", desc: true}})
	if rows[0]["b"] != 3.0 || rows[1]["b"] != 2.0 || rows[2]["a"] != "y" {
		t.Errorf("two keys: %v", rows)
	}
}

func TestPickFormat(t *testing.T) {
	tests := []struct{ asked, name, src, want string }{
		{"", "a.CSV", "", "csv"}, {"", "x.ndjson", "", "jsonl"}, {"", "inline", " [1]", "json"},
		{"", "inline", "{\"a\":1}\n{\"a\":2}", "jsonl"}, {"", "inline", "{\n \"a\": [1]\n}", "json"},
		{"", "inline", "a\tb\n1\t2", "tsv"}, {"", "inline", "a,b", "csv"}, {"NDJSON", "x.csv", "", "jsonl"},
	}
	for _, tc := range tests {
		if got, err := pickFormat(tc.asked, tc.name, []byte(tc.src)); err != nil || got != tc.want {
			t.Errorf("pickFormat(%q, %q, %q) = %q, %v; want %q", tc.asked, tc.name, tc.src, got, err, tc.want)
		}
	}
	if _, err := pickFormat("xml", "", nil); err == nil {
		t.Error("pickFormat(xml): want an error")
	}
}

func FuzzParseWhere(f *testing.F) {
	for _, s := range []string{"age > 30", `a == "x" and (b contains 'y' or not c)`, "x in [1, \"2\", null]", `s matches "^a+$"`, "((a))", "`f f` != -1.5e3"} {
		f.Add(s)
	}
	row := map[string]any{"age": 31.0, "a": "x", "b": []any{"y"}, "c": nil, "x": "2", "s": "aaa", "f f": 1.0}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := parseWhere(src)
		if err != nil {
			if n != nil {
				t.Fatal("a node came back with an error")
			}
			return
		}
		evalNode(n, row)
		evalNode(n, map[string]any{})
	})
}
