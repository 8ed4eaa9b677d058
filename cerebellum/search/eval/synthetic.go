package eval

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

// Synthetic corpora for benchmarks and tests: capabilities that look like
// real ones in shape and size (a one- to three-word name, a sentence or two
// of description, a few keywords, 0–20 tools with snake_case names and their
// own descriptions, some guide headings), drawn from a vocabulary with a
// Zipf distribution so that, as in real text, a few words are everywhere
// and most are rare. The same n and seed always give the same corpus.

// synthWords is the vocabulary: words of software tools and everyday tasks.
var synthWords = strings.Fields(`
file files folder directory path read write edit create delete remove rename move copy list search find
query filter sort group merge split join compare diff patch apply format convert export import parse
render build compile test run execute deploy release publish install update upgrade configure setup
start stop restart schedule plan remind notify alert send receive share upload download sync backup
restore archive compress extract encrypt decrypt sign verify hash token key secret password login
logout account user profile team project task issue ticket bug feature branch commit review merge
request response api endpoint server client service database table record row column index schema
migration cache queue stream event log metric trace monitor dashboard report chart graph plot image
photo picture video audio sound music song playlist podcast voice speech text document page note
notes markdown pdf spreadsheet slide presentation email message chat channel thread reply calendar
meeting invite contact address phone map location route travel trip flight hotel booking weather
forecast temperature news article blog post feed social tweet network web website browser url link
scrape crawl fetch http download html css json yaml xml csv sql python javascript go rust shell
terminal command script code snippet function class module package library dependency version
container docker kubernetes cloud storage bucket cluster node instance machine memory disk cpu
performance speed latency error warning failure retry timeout limit quota budget cost price invoice
payment order product shop store cart customer sale lead crm ticketing support help guide tutorial
lesson course learn teach quiz question answer translate language dictionary word grammar spell
summary summarize outline draft essay story write rewrite tone style brand logo design color font
layout template theme icon diagram sketch draw paint canvas model train predict classify detect
recognize ocr scan barcode qr camera screen screenshot record capture clipboard window desktop app
application launch open close focus resize keyboard mouse click type input output print printer
device bluetooth wifi battery power sleep shutdown timer alarm clock stopwatch time date zone
currency exchange stock market crypto wallet bank finance tax budget expense income recipe food
meal diet fitness workout health sleep habit journal mood goal todo checklist reminder game chess
puzzle sudoku dice card score sport team player match league movie film series show book reader
library author quote poem lyric joke meme gif sticker emoji research paper citation reference
academic science math calculator equation formula unit convert measure statistic data analysis
analyze insight trend forecast compare benchmark optimize improve fix debug inspect explain
`)

// synthFrames wrap query words the way requests do.
var synthFrames = []string{"%s", "how do I %s", "can you %s", "I need to %s", "help me %s", "%s please", "what can %s"}

type synth struct {
	r    *rand.Rand
	zipf *rand.Zipf
}

func newSynth(seed int64, salt uint64) *synth {
	r := rand.New(rand.NewPCG(uint64(seed), salt))
	return &synth{r: r, zipf: rand.NewZipf(r, 1.07, 2, uint64(len(synthWords)-1))}
}

func (s *synth) word() string { return synthWords[s.zipf.Uint64()] }

// between returns an int in [lo, hi].
func (s *synth) between(lo, hi int) int { return lo + s.r.IntN(hi-lo+1) }

func (s *synth) words(lo, hi int, sep string) string {
	n := s.between(lo, hi)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s.word())
	}
	return b.String()
}

// Synthetic returns n capabilities generated from seed.
func Synthetic(n int, seed int64) []search.Doc {
	s := newSynth(seed, 0x5eed)
	docs := make([]search.Doc, 0, n)
	taken := make(map[string]bool, n)
	for range n {
		name := uniqueName(s.words(1, 3, "-"), taken)
		d := search.Doc{ID: name, Name: name, Description: s.words(10, 40, " ")}
		for range s.between(0, 8) {
			d.Keywords = append(d.Keywords, s.word())
		}
		tools := 0
		if s.r.IntN(5) > 0 { // one in five is a guide without tools
			tools = s.between(1, 20)
		}
		seen := make(map[string]bool, tools)
		for range tools {
			base := s.words(2, 3, "_")
			t := base
			for i := 2; seen[t]; i++ {
				t = base + "_" + strconv.Itoa(i)
			}
			seen[t] = true
			d.ToolNames = append(d.ToolNames, t)
			d.ToolDescriptions = append(d.ToolDescriptions, s.words(6, 25, " "))
		}
		for range s.between(0, 8) {
			d.Headings = append(d.Headings, s.words(2, 4, " "))
		}
		docs = append(docs, d)
	}
	return docs
}

// SyntheticQueries returns n queries for docs: mostly a few words taken
// from one capability's text, mixed with a word from anywhere and wrapped in
// a request; one in twenty is a capability or tool name as written.
func SyntheticQueries(docs []search.Doc, n int, seed int64) []string {
	if len(docs) == 0 {
		return nil
	}
	s := newSynth(seed, 0x9e3779b97f4a7c15)
	out := make([]string, 0, n)
	for range n {
		d := &docs[s.r.IntN(len(docs))]
		if s.r.IntN(20) == 0 {
			if len(d.ToolNames) > 0 && s.r.IntN(2) == 0 {
				out = append(out, d.ToolNames[s.r.IntN(len(d.ToolNames))])
			} else {
				out = append(out, d.Name)
			}
			continue
		}
		text := strings.Fields(d.Description + " " + strings.Join(d.ToolDescriptions, " "))
		var q []string
		for range s.between(2, 5) {
			q = append(q, text[s.r.IntN(len(text))])
		}
		if s.r.IntN(2) == 0 {
			q = append(q, s.word())
		}
		frame := synthFrames[s.r.IntN(len(synthFrames))]
		out = append(out, strings.Replace(frame, "%s", strings.Join(q, " "), 1))
	}
	return out
}
