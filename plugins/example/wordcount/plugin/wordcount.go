// Package wordcount is the worked example of docs/plugins.md: a plugin with
// one tool, count_words. The host interprets this file at run time; the
// test beside it runs natively with go test.
package wordcount

import (
	"context"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// Stats is the result of count_words; its JSON matches the outputSchema
// in SKILL.md.
type Stats struct {
	Words int         `json:"words"`
	Lines int         `json:"lines"`
	Chars int         `json:"chars"`
	Top   []WordCount `json:"top"`
}

// WordCount is one frequent word.
type WordCount struct {
	Word  string `json:"word"`
	Count int    `json:"count"`
}

// Init registers the plugin's only tool.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("count_words", countWords)
	return p, nil
}

func countWords(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	var args struct {
		Text string `json:"text"`
		Top  *int   `json:"top"`
	}
	if err := req.Decode(&args); err != nil {
		return nil, sdk.Errorf("count_words needs a text: %v", err)
	}
	top := 5
	if args.Top != nil {
		top = *args.Top
	}
	return sdk.JSON(Count(args.Text, top)), nil
}

// Count measures text and lists its top most frequent words.
func Count(text string, top int) Stats {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	freq := map[string]int{}
	for _, w := range words {
		freq[w]++
	}
	list := make([]WordCount, 0, len(freq))
	for w, n := range freq {
		list = append(list, WordCount{Word: w, Count: n})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Count != list[j].Count {
			return list[i].Count > list[j].Count
		}
		return list[i].Word < list[j].Word
	})
	if top < len(list) {
		list = list[:top]
	}
	lines := 0
	if text != "" {
		lines = strings.Count(text, "\n") + 1
		if strings.HasSuffix(text, "\n") {
			lines--
		}
	}
	return Stats{Words: len(words), Lines: lines, Chars: utf8.RuneCountInString(text), Top: list}
}
