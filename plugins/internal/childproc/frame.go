package childproc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// The framing of both protocols: one JSON value per line (JSON strings
// escape newlines, so a message never spans lines), each line bounded in
// length. A Writer sends, a MsgReader reads where a read may be woken
// (a deadline) and must keep what it has, a LineReader reads a stream
// that only ends.

// LineReader reads newline-terminated lines of bounded length.
type LineReader struct {
	r   *bufio.Reader
	max int
}

// NewLineReader reads r in lines of at most max bytes.
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line without its newline. A final line without a
// newline is returned too; io.EOF follows. A line longer than max is an
// error (the rest of the stream cannot be trusted to be in step).
func (l *LineReader) Next() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(line)+len(chunk) > l.max+1 {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrLineTooLong, l.max)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// CutLine is like Next but never fails on a long line: it returns the
// first max bytes and drops the rest of the line (for log output).
func (l *LineReader) CutLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		if room := l.max - len(line); room > 0 {
			line = append(line, chunk[:min(len(chunk), room)]...)
		}
		switch {
		case err == nil:
			if n := len(line); n > 0 && line[n-1] == '\n' {
				line = line[:n-1]
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// MsgReader reads newline-terminated lines of bounded length, like
// LineReader, except that a read that fails (a deadline, a wake) keeps
// the partial line it has for the next one.
type MsgReader struct {
	r   io.Reader
	max int
	buf []byte
	// buf[start:end] is unread; buf[start:scan] holds no newline.
	start, scan, end int
}

// msgReaderSize is the buffer of a MsgReader, grown for a longer line.
const msgReaderSize = 64 << 10

// NewMsgReader reads r in lines of at most max bytes.
func NewMsgReader(r io.Reader, max int) *MsgReader {
	return &MsgReader{r: r, max: max, buf: make([]byte, min(msgReaderSize, max+1))}
}

// Next returns the next line without its newline, valid until the next
// call. A final line without a newline is returned too; io.EOF follows.
func (m *MsgReader) Next() ([]byte, error) {
	for {
		if i := bytes.IndexByte(m.buf[m.scan:m.end], '\n'); i >= 0 {
			line := m.buf[m.start : m.scan+i]
			m.start = m.scan + i + 1
			m.scan = m.start
			return line, nil
		}
		m.scan = m.end
		if m.end-m.start > m.max {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrLineTooLong, m.max)
		}
		if m.start == m.end {
			m.start, m.scan, m.end = 0, 0, 0
		}
		if m.end == len(m.buf) {
			if m.start > 0 {
				n := copy(m.buf, m.buf[m.start:m.end])
				m.scan -= m.start
				m.start, m.end = 0, n
			} else {
				m.buf = append(m.buf, make([]byte, min(len(m.buf), m.max+1-len(m.buf)))...)
			}
		}
		n, err := m.r.Read(m.buf[m.end:])
		m.end += n
		if n > 0 {
			continue // the error, if any, comes again on the next read
		}
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) && m.end > m.start {
			line := m.buf[m.start:m.end]
			m.start, m.scan = m.end, m.end
			return line, nil
		}
		return nil, err
	}
}

// Writer writes messages as JSON, one line in one write each, from any
// goroutine.
//
// It encodes into a buffer it keeps (json.Encoder, HTML escapes off: a
// pipe is no web page), so a message costs no allocation of its line:
// json.Marshal allocated and copied each line, about a fifth of the
// encoding's cost at a call's small sizes (BenchmarkWriterSend).
type Writer struct {
	mu sync.Mutex
	w  io.Writer
	// max, when set, bounds a line (the reader's bound on the other side):
	// a longer message is not sent and Send returns ErrLineTooLong.
	max int
	buf bytes.Buffer
	enc *json.Encoder
}

// keepBuffer bounds the buffer a Writer keeps between messages: a
// plugin's source or a 64 KiB result is encoded in a buffer of its own.
const keepBuffer = 64 << 10

// NewWriter writes to w lines of at most max bytes (0: no bound).
func NewWriter(w io.Writer, max int) *Writer {
	wr := &Writer{w: w, max: max}
	wr.enc = json.NewEncoder(&wr.buf)
	wr.enc.SetEscapeHTML(false)
	return wr
}

// Send writes v as one line; what says what it is, for errors.
func (w *Writer) Send(what string, v any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Reset()
	defer func() {
		if w.buf.Cap() > keepBuffer {
			w.buf = bytes.Buffer{}
		}
	}()
	// Encode ends the line with its newline.
	if err := w.enc.Encode(v); err != nil {
		return fmt.Errorf("encode %s message: %w", what, err)
	}
	if n := w.buf.Len() - 1; w.max > 0 && n > w.max {
		return fmt.Errorf("%w: a %s message of %d bytes, over %d", ErrLineTooLong, what, n, w.max)
	}
	_, err := w.w.Write(w.buf.Bytes())
	return err
}
