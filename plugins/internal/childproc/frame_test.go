package childproc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// stutterReader hands its data over in pieces of the given sizes, with a
// deadline error (a wake) before each piece.
type stutterReader struct {
	data  []byte
	sizes []byte
	woke  bool
}

func (s *stutterReader) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	if !s.woke {
		s.woke = true
		return 0, os.ErrDeadlineExceeded
	}
	s.woke = false
	n := len(s.data)
	if len(s.sizes) > 0 {
		n = min(n, int(s.sizes[0])%7+1)
		s.sizes = s.sizes[1:]
	}
	n = copy(p, s.data[:n])
	s.data = s.data[n:]
	return n, nil
}

// readAll reads every line of mr, going on after each wake.
func readAll(mr *MsgReader) ([]string, error) {
	var lines []string
	for {
		line, err := mr.Next()
		switch {
		case err == nil:
			lines = append(lines, string(line))
		case errors.Is(err, os.ErrDeadlineExceeded):
		default:
			return lines, err
		}
	}
}

// The reader of a child's messages keeps a partial line across a wake,
// and otherwise reads as the plain line reader does.
func TestMsgReader(t *testing.T) {
	cases := []struct {
		in      string
		max     int
		want    []string
		wantErr error
	}{
		{"a\nbb\n", 4, []string{"a", "bb"}, io.EOF},
		{"a\nlast", 4, []string{"a", "last"}, io.EOF},
		{"a\n12345\n", 4, []string{"a"}, ErrLineTooLong},
		{"1234\n", 4, []string{"1234"}, io.EOF},
		{"", 4, nil, io.EOF},
		{strings.Repeat("x", 100) + "\nend\n", 200, []string{strings.Repeat("x", 100), "end"}, io.EOF},
	}
	for _, tc := range cases {
		mr := NewMsgReader(&stutterReader{data: []byte(tc.in), sizes: []byte{2, 0, 5, 1}}, tc.max)
		mr.buf = mr.buf[:min(len(mr.buf), 3)] // grow and compact often
		got, err := readAll(mr)
		if !errors.Is(err, tc.wantErr) || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: %q, %v; want %q, %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// FuzzMsgReader holds the reader of a child's messages (untrusted bytes,
// cut anywhere by wakes) to the plain line reader: the frame parser both
// protocols read with.
func FuzzMsgReader(f *testing.F) {
	f.Add([]byte("{\"op\":\"result\",\"id\":1}\n{\"op\":\"secret\"}\nrest"), []byte{3, 1, 4, 1, 5})
	f.Add([]byte("\n\n\n"), []byte{0})
	f.Add([]byte(strings.Repeat("y", 40)+"\n"), []byte{6, 6, 6})
	f.Fuzz(func(t *testing.T, data, sizes []byte) {
		const max = 16
		var want []string
		lr := NewLineReader(bytes.NewReader(data), max)
		var wantErr error
		for {
			line, err := lr.Next()
			if err != nil {
				wantErr = err
				break
			}
			want = append(want, string(line))
		}
		// The plain reader lets a last line without its newline be one
		// byte longer; this one holds every line to max.
		for i, l := range want {
			if len(l) > max {
				want, wantErr = want[:i], ErrLineTooLong
				break
			}
		}
		mr := NewMsgReader(&stutterReader{data: data, sizes: sizes}, max)
		mr.buf = mr.buf[:4]
		got, err := readAll(mr)
		if errors.Is(err, ErrLineTooLong) != errors.Is(wantErr, ErrLineTooLong) || !slices.Equal(got, want) {
			t.Fatalf("%q: %q, %v; want %q, %v", data, got, err, want, wantErr)
		}
	})
}

// The line reader refuses an over-long line and keeps up.
func TestLineReader(t *testing.T) {
	cases := []struct {
		in      string
		max     int
		want    []string
		wantErr error
	}{
		{"a\nbb\n", 4, []string{"a", "bb"}, io.EOF},
		{"a\nlast", 4, []string{"a", "last"}, io.EOF},
		{"a\n12345\n", 4, []string{"a"}, ErrLineTooLong},
		{"", 4, nil, io.EOF},
	}
	for _, tc := range cases {
		lr := NewLineReader(strings.NewReader(tc.in), tc.max)
		var got []string
		var err error
		for {
			var line []byte
			if line, err = lr.Next(); err != nil {
				break
			}
			got = append(got, string(line))
		}
		if !errors.Is(err, tc.wantErr) || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: %q, %v; want %q, %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}
