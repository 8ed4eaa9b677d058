package chat

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// para is a Markdown paragraph of about n bytes.
func para(i, n int) string {
	s := fmt.Sprintf("Paragraph %d. ", i)
	for len(s) < n {
		s += "Some words of a long answer. "
	}
	return s + "\n\n"
}

func TestSplitterCuts(t *testing.T) {
	var paras strings.Builder
	for i := range 60 {
		paras.WriteString(para(i, 900))
	}
	code := "Intro.\n\n```go\n" + strings.Repeat("fmt.Println(\"a line of code\")\n\n", 2000) + "```\n\nAfter.\n"
	tests := []struct {
		name string
		md   bool
		text string
		// check looks at the pieces of text.
		check func(t *testing.T, text string, ps []piece)
	}{
		{"short: one piece", true, "Hello.\n\nWorld.", func(t *testing.T, text string, ps []piece) {
			if len(ps) != 1 || ps[0].text(text) != text {
				t.Errorf("pieces %+v", ps)
			}
		}},
		{"paragraphs: cut between them", true, paras.String(), func(t *testing.T, text string, ps []piece) {
			for i, p := range ps[:len(ps)-1] {
				if n := p.end - p.start; n < pieceMin || n > pieceMax {
					t.Errorf("piece %d has %d bytes", i, n)
				}
				if !strings.HasSuffix(text[:p.end], "\n\n") || !strings.HasPrefix(text[p.end:], "Paragraph ") {
					t.Errorf("piece %d ends inside a paragraph: %q|%q", i, text[p.end-10:p.end], text[p.end:p.end+10])
				}
			}
		}},
		{"a code block longer than a piece: closed and opened again", true, code, func(t *testing.T, text string, ps []piece) {
			if len(ps) < 3 {
				t.Fatalf("%d pieces", len(ps))
			}
			for i, p := range ps {
				body := p.text(text)
				if p.open != "" && p.open != "```go\n" || p.close != "" && !strings.HasSuffix(body, "\n```\n") {
					t.Errorf("piece %d opens or closes its code block wrongly: %q … %q", i, body[:12], body[len(body)-12:])
				}
				if i > 0 && i < len(ps)-2 && (p.open == "" || p.close == "") {
					t.Errorf("piece %d inside the code block is not fenced: %+v", i, p)
				}
			}
			if !strings.HasSuffix(ps[0].text(text), "```\n") || ps[0].open != "" {
				t.Errorf("the first piece does not close its code block")
			}
		}},
		{"plain text: no fences", false, code, func(t *testing.T, text string, ps []piece) {
			for _, p := range ps {
				if p.open != "" || p.close != "" {
					t.Errorf("plain text got a fence: %+v", p)
				}
			}
		}},
		{"one line of megabytes: cut at spaces", true, strings.Repeat("word ", 200_000), func(t *testing.T, text string, ps []piece) {
			for i, p := range ps[:len(ps)-1] {
				if n := p.end - p.start; n > pieceMax || n < pieceMax-1024 || text[p.end-1] != ' ' {
					t.Errorf("piece %d: %d bytes ending %q", i, n, text[p.end-1:p.end])
				}
			}
		}},
		{"no spaces, many-byte runes: cut between runes", true, strings.Repeat("語", 40_000), func(t *testing.T, text string, ps []piece) {
			for i, p := range ps {
				if !utf8.ValidString(text[p.start:p.end]) || p.end-p.start > pieceMax {
					t.Errorf("piece %d: %d bytes, valid %v", i, p.end-p.start, utf8.ValidString(text[p.start:p.end]))
				}
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := splitter{md: tc.md}
			s.scan(tc.text)
			ps := s.pieces()
			var joined strings.Builder
			for _, p := range ps {
				joined.WriteString(tc.text[p.start:p.end])
			}
			if joined.String() != tc.text {
				t.Fatal("the pieces do not make up the text")
			}
			tc.check(t, tc.text, ps)
		})
	}
}

// checkStreamed scans text as it would stream in, in pieces of the given
// sizes (cycled), and checks the pieces against one scan of the whole.
func checkStreamed(t *testing.T, md bool, text string, sizes []int) {
	t.Helper()
	whole := splitter{md: md}
	whole.scan(text)
	s := splitter{md: md}
	var seen []piece
	for at, k := 0, 0; at < len(text); k++ {
		at = min(len(text), at+max(1, sizes[k%len(sizes)]))
		if s.scan(text[:at]) {
			t.Fatalf("scan of a longer text started over at %d", at)
		}
		// A piece once cut never changes.
		if len(s.done) < len(seen) || !slices.Equal(s.done[:len(seen)], seen) {
			t.Fatalf("pieces cut before changed at %d", at)
		}
		seen = append([]piece(nil), s.done...)
	}
	if !slices.Equal(s.pieces(), whole.pieces()) {
		t.Fatalf("streamed pieces %+v, whole %+v", s.pieces(), whole.pieces())
	}
}

func TestSplitterStreamedCutsAsWhole(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		b.WriteString(para(i, 700+i*37))
		if i%7 == 3 {
			b.WriteString("```\n" + strings.Repeat("code line\n", 300+i*50) + "```\n\n")
		}
		if i%11 == 5 {
			b.WriteString(strings.Repeat("x", 20_000) + "\n\n")
		}
	}
	for _, sizes := range [][]int{{1}, {7, 300, 3}, {4096}, {1 << 20}} {
		checkStreamed(t, true, b.String(), sizes)
		checkStreamed(t, false, b.String(), sizes)
	}
}

func TestSplitterStartsOverWhenTheTextChanges(t *testing.T) {
	text := strings.Repeat(para(1, 900), 40)
	s := splitter{md: true}
	s.scan(text)
	changed := "X" + text[1:]
	if !s.scan(changed) {
		t.Fatal("a text changed at its start was not scanned again")
	}
	fresh := splitter{md: true}
	fresh.scan(changed)
	if !slices.Equal(s.pieces(), fresh.pieces()) {
		t.Error("starting over did not give the pieces of the new text")
	}
}

// The pieces of any text make it up exactly, none is over pieceMax, and
// streaming it in any pieces cuts it as a whole scan does.
func FuzzSplitter(f *testing.F) {
	f.Add(strings.Repeat(para(1, 900), 30), 5, true)
	f.Add("```\n"+strings.Repeat("a\n\nb\n", 9000)+"```\nend", 100, true)
	f.Add(strings.Repeat("é", 30000), 3, false)
	f.Add("~~~~ x\n"+strings.Repeat("``` y\n\n", 5000)+"~~~~\n"+strings.Repeat("p\n\n", 8000), 1000, true)
	f.Fuzz(func(t *testing.T, text string, step int, md bool) {
		s := splitter{md: md}
		s.scan(text)
		end := 0
		for _, p := range s.pieces() {
			if p.start != end || p.end <= p.start || p.end-p.start > pieceMax {
				t.Fatalf("piece %+v after %d", p, end)
			}
			end = p.end
		}
		if end != len(text) {
			t.Fatalf("the pieces end at %d of %d", end, len(text))
		}
		checkStreamed(t, md, text, []int{step % 5000, step % 17, step % 1000})
	})
}
