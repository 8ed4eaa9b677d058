package chat

import (
	"strings"
	"unicode/utf8"
)

// Sizes of a long message's pieces. A message longer than longMessage is
// shown as pieces, each a row of the list of its own, so a reply of
// megabytes costs what the rows in view cost: nothing re-parses or lays
// out the whole text when a piece streams in, and rows out of view have
// no widgets. Pieces end between paragraphs where they can; a piece never
// passes pieceMax, cutting at a line break (inside a code block too, which
// is closed and opened again around the cut) or, in a line longer than
// that, at a space or a character.
const (
	longMessage = 32 << 10
	pieceMin    = 8 << 10
	pieceMax    = 16 << 10
)

// piece is one piece of a message: a byte range, with the code fence
// reopened in front when it starts inside one and closed behind when it
// ends inside one (Markdown only).
type piece struct {
	start, end  int
	open, close string
}

// text is what a piece shows of msg.
func (p piece) text(msg string) string {
	s := msg[p.start:p.end]
	if p.open == "" && p.close == "" {
		return s // shares msg's bytes
	}
	if p.close != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return p.open + s + p.close
}

// splitter cuts a growing message into pieces, looking at each byte once
// however often the message grows: a cut depends only on the text before
// it (and on the first byte of the line after a paragraph break), so the
// pieces already cut stay as they are while the rest streams in.
type splitter struct {
	md bool
	// done are the pieces cut so far; the open piece runs from start.
	done  []piece
	start int
	open  string // the fence reopened at start
	// pos is the start of the first line not looked at yet; blank says
	// whether the line before it was blank, fence which code fence is
	// open there.
	pos   int
	blank bool
	fence codeFence
	// seen is the text looked at, to notice a message that changed
	// before its end (the stored text replacing a streamed one).
	seen string
}

// codeFence is an open Markdown code fence: its character and length, and
// its opening line to open it again in the next piece.
type codeFence struct {
	char byte
	n    int
	line string
}

// scan looks at what text added since the last scan, cutting pieces; it
// starts over when text does not begin with what it saw before. It
// reports whether it started over (every piece may have changed).
func (s *splitter) scan(text string) bool {
	restart := len(text) < s.pos || text[:s.pos] != s.seen[:s.pos]
	if restart {
		*s = splitter{md: s.md}
	}
	s.seen = text
	for {
		nl := strings.IndexByte(text[s.pos:], '\n')
		if nl < 0 {
			// The last line is not complete yet: cut inside it only when
			// the open piece is already over the limit.
			if len(text)-s.start <= pieceMax {
				return restart
			}
			if s.pos > s.start {
				s.cut(s.pos)
			} else {
				s.cutInside(text)
			}
			continue
		}
		ls, le := s.pos, s.pos+nl+1
		switch {
		case ls > s.start && s.fence.char == 0 && s.blank && ls-s.start >= pieceMin && startsBlock(text[ls]):
			s.cut(ls) // a paragraph break
			continue
		case le-s.start > pieceMax && ls > s.start:
			s.cut(ls)
			continue // the line may be too long by itself
		case le-s.start > pieceMax:
			s.cutInside(text)
			continue
		}
		line := text[ls:le]
		if s.md {
			s.fence = s.fence.after(line)
		}
		s.blank = strings.TrimSpace(line) == ""
		s.pos = le
	}
}

// cut ends the open piece at at.
func (s *splitter) cut(at int) {
	p := piece{start: s.start, end: at, open: s.open}
	s.open = ""
	if s.fence.char != 0 {
		p.close = strings.Repeat(string(s.fence.char), s.fence.n) + "\n"
		s.open = s.fence.line
	}
	s.done = append(s.done, p)
	s.start = at
}

// cutInside cuts a line too long for a piece: after its last space
// within the limit when there is one near it, else between characters.
func (s *splitter) cutInside(text string) {
	at := s.start + pieceMax
	for at > s.start && !utf8.RuneStart(text[at]) {
		at--
	}
	if i := strings.LastIndexByte(text[max(s.start, at-1024):at], ' '); i >= 0 {
		at = max(s.start, at-1024) + i + 1
	}
	if at <= s.start { // cannot happen with pieceMax > a rune; be safe
		_, n := utf8.DecodeRuneInString(text[s.start:])
		at = s.start + n
	}
	s.cut(at)
	s.pos, s.blank = at, false
}

// pieces are the pieces of text as last scanned: the ones cut and the
// open one (when not empty). The slice is valid until the next scan.
func (s *splitter) pieces() []piece {
	if len(s.seen) == s.start {
		return s.done
	}
	// The open piece goes in done's spare room, so no call copies them.
	out := append(s.done, piece{start: s.start, end: len(s.seen), open: s.open})
	s.done = out[:len(s.done)]
	return out
}

// count is how many pieces there are, the open one included.
func (s *splitter) count() int {
	if len(s.seen) == s.start {
		return len(s.done)
	}
	return len(s.done) + 1
}

// end is where piece k ends.
func (s *splitter) end(k int) int {
	if k < len(s.done) {
		return s.done[k].end
	}
	return len(s.seen)
}

// startsBlock reports whether a line starting with c starts a block of
// its own after a blank line (rather than continuing an indented one).
func startsBlock(c byte) bool {
	return c != ' ' && c != '\t' && c != '\n' && c != '\r'
}

// after is the fence open after line (CommonMark: up to three spaces,
// then three or more backticks or tildes; a closing run at least as long,
// of the same character, and nothing but spaces after it).
func (f codeFence) after(line string) codeFence {
	t := strings.TrimRight(line, "\r\n")
	indent := len(t) - len(strings.TrimLeft(t, " "))
	if indent > 3 {
		return f
	}
	t = t[indent:]
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return f
	}
	c := t[0]
	n := len(t) - len(strings.TrimLeft(t, string(c)))
	if n < 3 {
		return f
	}
	rest := t[n:]
	if f.char != 0 {
		if c == f.char && n >= f.n && strings.TrimSpace(rest) == "" {
			return codeFence{}
		}
		return f
	}
	if c == '`' && strings.Contains(rest, "`") {
		return f // not a fence: an info string has no backticks
	}
	return codeFence{char: c, n: n, line: strings.TrimRight(line, "\r\n") + "\n"}
}
