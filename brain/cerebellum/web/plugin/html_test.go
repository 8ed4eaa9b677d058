package web

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestHTMLToTextGolden(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	text, title := htmlToText(string(in), "https://reef.example/species/wrasse")
	got := "Title: " + title + "\n\n" + text + "\n"
	golden := filepath.Join("testdata", "page.golden.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("htmlToText differs from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
}

func TestHTMLToText(t *testing.T) {
	tests := []struct {
		name, in, want, title string
	}{
		{name: "plain", in: "hello", want: "hello"},
		{name: "entities", in: "<p>a &amp; b &lt;c&gt; &#39;d&#39; &eacute;</p>", want: "a & b <c> 'd' é"},
		{name: "title", in: "<title> A  &amp; B </title><body>x</body>", want: "x", title: "A & B"},
		{name: "headings", in: "<h2>Two</h2><p>para</p><h4>Four</h4>", want: "## Two\n\npara\n\n#### Four"},
		{name: "whitespace folds", in: "<p>a\n   b\t\tc</p>", want: "a b c"},
		{name: "br", in: "a<br>b<br/>c", want: "a\nb\nc"},
		{name: "list", in: "<ul><li>one</li><li>two</ul>", want: "- one\n- two"},
		{name: "relative link", in: `<a href="../x?a=1&amp;b=2">X</a>`, want: "[X](https://h.example/x?a=1&b=2)"},
		{name: "url as text", in: `<a href="https://a.example/">https://a.example/</a>`, want: "https://a.example/"},
		{name: "single-quoted href", in: `<a class=x href='/y'>Y</a>`, want: "[Y](https://h.example/y)"},
		{name: "script dropped", in: "<p>a</p><script>document.write('<p>b</p>')</script><p>c</p>", want: "a\n\nc"},
		{name: "style case-insensitive", in: "<STYLE>p{}</STYLE>x", want: "x"},
		{name: "pre kept", in: "<p>x</p><pre>  a\n    b &amp; c</pre>", want: "x\n\n```\n  a\n    b & c\n```"},
		{name: "main preferred", in: "<body><div>menu</div><main><p>content</p></main></body>", want: "content"},
		{name: "unclosed tags", in: "<p>a<p>b<div>c", want: "a\n\nb\n\nc"},
		{name: "stray lt", in: "a < b and c > d", want: "a < b and c > d"},
		{name: "nul stripped", in: "a\x00b", want: "ab"},
		{name: "empty", in: "", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, title := htmlToText(tc.in, "https://h.example/dir/page")
			if got != tc.want {
				t.Errorf("text = %q, want %q", got, tc.want)
			}
			if title != tc.title {
				t.Errorf("title = %q, want %q", title, tc.title)
			}
		})
	}
}

func FuzzHTMLToText(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.html"))
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err == nil {
			f.Add(string(data))
		}
	}
	f.Add("<pre>\x001\x00</pre><p>\x000\x00</p>")
	f.Add("<a href='")
	f.Add("<h1><h2>x</h1></h2>")
	f.Fuzz(func(t *testing.T, in string) {
		out, title := htmlToText(in, "https://h.example/")
		if utf8.ValidString(in) && (!utf8.ValidString(out) || !utf8.ValidString(title)) {
			t.Errorf("valid input gave invalid UTF-8")
		}
		if strings.Contains(out, "\x00") {
			t.Errorf("placeholder leaked: %q", out)
		}
	})
}
