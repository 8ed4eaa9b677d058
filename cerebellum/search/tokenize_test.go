package search

import (
	"slices"
	"strings"
	"testing"
)

type piece struct {
	w      string
	joined bool
}

func split(s string) []piece {
	var out []piece
	splitWords(s, nil, func(w []byte, joined bool) { out = append(out, piece{string(w), joined}) })
	return out
}

func TestSplitWords(t *testing.T) {
	j := func(w string) piece { return piece{w, true} }
	p := func(w string) piece { return piece{w, false} }
	tests := []struct {
		in   string
		want []piece
	}{
		{"", nil},
		{"  --__ ", nil},
		{"hello", []piece{p("hello")}},
		{"snake_case-and-kebab words", []piece{p("snake"), p("case"), p("and"), p("kebab"), p("words")}},
		{"getWeather", []piece{p("get"), p("weather"), j("getweather")}},
		{"SEOTool", []piece{p("seo"), p("tool"), j("seotool")}},
		{"ChatOCR", []piece{p("chat"), p("ocr"), j("chatocr")}},
		{"AI2sql", []piece{p("ai"), p("2"), p("sql"), j("ai2sql")}},
		{"mp3 d20", []piece{p("mp"), p("3"), j("mp3"), p("d"), p("20"), j("d20")}},
		{"iPhone", []piece{p("i"), p("phone"), j("iphone")}},
		{"HTTPServer_v2", []piece{p("http"), p("server"), j("httpserver"), p("v"), p("2"), j("v2")}},
		{"PDF&URLTool", []piece{p("pdf"), p("url"), p("tool"), j("urltool")}},
		{"Ünïcödé Straße", []piece{p("ünïcödé"), p("straße")}},
		{"ÉCOLE", []piece{p("école")}},
		{"e\u0301t\u00e9", []piece{p("e\u0301té")}}, // combining accent stays in its word
		{"\u0301alone", []piece{p("alone")}},        // a mark after nothing is dropped
		{"東京タワー 2024年", []piece{p("東京タワー"), p("2024"), p("年"), j("2024年")}},
		{"don't", []piece{p("don"), p("t")}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := split(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("splitWords(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestSplitWordsLongRun(t *testing.T) {
	// A run with more camel humps than maxPieces still yields every piece.
	in := strings.Repeat("aB", 40)
	var pieces int
	splitWords(in, nil, func(w []byte, joined bool) {
		if !joined {
			pieces++
		}
	})
	if pieces != 41 { // "a", then "ba" ×39, then "b"
		t.Errorf("got %d pieces, want 41", pieces)
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Searching the files", []string{"search", "file"}},
		{"How can I get the weather forecasts?", []string{"get", "weather", "forecast"}},
		{"running runner runs", []string{"run", "runner", "run"}},
		{"getWeather", []string{"get", "weather", "getweath"}},
		{"I a the of", nil},
		{"Straße 2024", []string{"straße", "2024"}},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStopListIsLowerCaseAndSorted(t *testing.T) {
	// The word table gives stop words fixed indexes in list order; a
	// sorted list keeps that order obvious and free of duplicates.
	for i, w := range stopList {
		if w != strings.ToLower(w) {
			t.Errorf("stop word %q is not lower-case", w)
		}
		if i > 0 && stopList[i-1] >= w {
			t.Errorf("stop list not strictly sorted at %q", w)
		}
	}
}

func TestSegment(t *testing.T) {
	vocab := map[string]bool{}
	for _, w := range strings.Fields("air quality forecast weather tool car park search funds fore east time") {
		vocab[w] = true
	}
	known := func(s string) bool { return vocab[s] }
	tests := []struct {
		in   string
		want []string
	}{
		{"airqualityforecast", []string{"air", "quality", "forecast"}},
		{"weathertool", []string{"weather", "tool"}},
		{"hdbcarpark", []string{"car", "park"}},
		{"fundsdbsearch", []string{"funds", "search"}},
		// "fore" and "east" overlap; either leaves three runes uncovered,
		// and then a known last piece wins.
		{"airqualityforeast", []string{"air", "quality", "east"}},
		{"timemachine", []string{"time"}},
		{"weather", nil},      // never split into itself
		{"short", nil},        // below minSegWord
		{"zzzzzzzzzzzz", nil}, // nothing known
		{strings.Repeat("air", 30), nil},
		{"caféweather", []string{"weather"}},
	}
	for _, tt := range tests {
		if got := segment(tt.in, known); !slices.Equal(got, tt.want) {
			t.Errorf("segment(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAppendNorm(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"web-search", "websearch"},
		{"  Web Search ", "websearch"},
		{"web_search", "websearch"},
		{"WEB--SEARCH", "websearch"},
		{"plain", "plain"},
		{"Ünï_Cödé", "ünïcödé"},
		{" - _ ", ""},
		{"\u00a0Web\u2003Search\n", "websearch"},
		{"ÉCOLE", "école"},
	} {
		if got := string(appendNorm(nil, tt.in)); got != tt.want {
			t.Errorf("appendNorm(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
