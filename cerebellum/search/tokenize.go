package search

import (
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Character classes the word splitter tracks to find word boundaries.
const (
	clsSep uint8 = iota
	clsLower
	clsUpper
	clsDigit
	clsMark
)

// asciiClass classifies ASCII bytes without a call.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clsLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clsUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clsDigit
	}
	return t
}()

func classify(r rune) uint8 {
	switch {
	case r < utf8.RuneSelf:
		return asciiClass[r]
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return clsUpper
	case unicode.IsLetter(r):
		return clsLower // lower-case and uncased letters (CJK, Arabic…)
	case unicode.IsDigit(r):
		return clsDigit
	case unicode.In(r, unicode.Mn, unicode.Mc):
		return clsMark
	}
	return clsSep
}

// maxPieces bounds the pieces of one run that are tracked for the joined
// form; a freak run with more is emitted in chunks of that many pieces.
const maxPieces = 16

// splitWords calls fn with each word of s, lower-cased, in order. Words are
// runs of Unicode letters and digits, further split at camelCase
// ("aiAgents" → ai, agents; "SEOTool" → seo, tool) and letter/digit
// boundaries ("ai2sql" → ai, 2, sql); separators (_ - space and every other
// non-alphanumeric) end a run. After the pieces of a run that split, fn
// gets the whole run with joined set ("ai2sql", "iphone"), so identifiers
// also match as written. fn receives a buffer it must not keep; buf is
// scratch space, returned for reuse so callers allocate nothing per word.
func splitWords(s string, buf []byte, fn func(w []byte, joined bool)) []byte {
	buf = buf[:0]
	var cuts [maxPieces]int // piece boundaries inside buf
	nc := 0
	flushRun := func() {
		if len(buf) == 0 {
			return
		}
		start := 0
		for _, c := range cuts[:nc] {
			fn(buf[start:c], false)
			start = c
		}
		fn(buf[start:], false)
		if nc > 0 {
			fn(buf, true)
		}
		buf, nc = buf[:0], 0
	}
	cut := func() {
		if nc == maxPieces {
			flushRun() // a freak run: emit what we have and start afresh
			return
		}
		cuts[nc] = len(buf)
		nc++
	}
	prev := clsSep
	for i := 0; i < len(s); {
		r, size, c := rune(s[i]), 1, uint8(0)
		if r < utf8.RuneSelf {
			c = asciiClass[r]
		} else {
			r, size = utf8.DecodeRuneInString(s[i:])
			c = classify(r)
		}
		if c == clsMark {
			// A combining mark continues the word it follows (NFD accents).
			if prev != clsSep {
				buf = utf8.AppendRune(buf, r)
			}
			i += size
			continue
		}
		switch {
		case c == clsSep:
			flushRun()
		case prev == clsSep:
			// start of a run
		case (prev == clsDigit) != (c == clsDigit):
			cut() // letter/digit boundary
		case prev == clsLower && c == clsUpper:
			cut() // camelCase
		case prev == clsUpper && c == clsUpper:
			// "SEOTool": the last capital before a lower-case letter starts a word.
			if i+size < len(s) {
				next := rune(s[i+size])
				if next >= utf8.RuneSelf {
					next, _ = utf8.DecodeRuneInString(s[i+size:])
				}
				if classify(next) == clsLower {
					cut()
				}
			}
		}
		if c != clsSep {
			switch {
			case r < utf8.RuneSelf && c == clsUpper:
				buf = append(buf, byte(r)+'a'-'A')
			case r < utf8.RuneSelf:
				buf = append(buf, byte(r))
			case c == clsUpper:
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
			default:
				buf = utf8.AppendRune(buf, r)
			}
		}
		prev = c
		i += size
	}
	flushRun()
	return buf
}

// stopList holds English function words that carry no topic. The list is
// deliberately small and generic: pronouns, auxiliaries, determiners,
// prepositions and conjunctions.
var stopList = []string{
	"a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
	"be", "been", "before", "being", "below", "between", "both", "but", "by",
	"can", "could", "did", "do", "does", "doing", "down", "during",
	"each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers",
	"herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself",
	"just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once",
	"only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same", "she", "should",
	"so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then",
	"there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very",
	"was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
	"with", "would", "you", "your", "yours", "yourself", "yourselves",
}

// stopWords is stopList as a set. Read-only after initialisation.
var stopWords = func() map[string]struct{} {
	m := make(map[string]struct{}, len(stopList))
	for _, w := range stopList {
		m[w] = struct{}{}
	}
	return m
}()

// isStop reports whether w is dropped from indexing: a stop word or a single
// letter (the debris of "don't" or "Father's").
func isStop(w []byte) bool {
	if len(w) == 1 && !('0' <= w[0] && w[0] <= '9') {
		return true
	}
	_, ok := stopWords[string(w)] // no allocation: map index by converted []byte
	return ok
}

// maxStemLen bounds the words handed to the stemmer; longer "words" are
// identifiers or noise, and stemming them gains nothing.
const maxStemLen = 40

// stem reduces an English word to its Snowball (Porter2) stem. Words with
// anything but ASCII letters are kept as they are: the English stemmer has
// nothing to say about them.
func stem(w string) string {
	if len(w) <= 2 || len(w) > maxStemLen {
		return w
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return w
		}
	}
	return english.Stem(w, true)
}

// Tokenize returns the index terms of s, in order: words split at
// camelCase, snake_case, kebab-case and letter/digit boundaries, each run
// that split followed by its whole, lower-cased, stop words and single
// letters dropped, stemmed.
func Tokenize(s string) []string {
	var out []string
	splitWords(s, nil, func(w []byte, _ bool) {
		if isStop(w) {
			return
		}
		out = append(out, stem(string(w)))
	})
	return out
}
