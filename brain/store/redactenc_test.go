package store

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

// wrap breaks s into lines of n characters, as base64 and xxd -p do.
func wrap(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s); i += n {
		b.WriteString(s[i:min(i+n, len(s))])
		b.WriteByte('\n')
	}
	return b.String()
}

// odHex is s as od -An -tx1 prints it: hex bytes with a space before
// each, 16 to a line.
func odHex(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, " %02x", s[i])
		if i%16 == 15 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// encodings are what a command would print to get secret past exact-text
// redaction (rev, base64, base64 -w0, basenc --base64url, xxd -p, od,
// URL encoding), each in a line of other output.
func encodings(secret string) map[string]string {
	out := map[string]string{
		"reversed":           reverse(secret),
		"hex":                hex.EncodeToString([]byte(secret)),
		"HEX":                strings.ToUpper(hex.EncodeToString([]byte(secret))),
		"xxd -p (wrapped)":   wrap(hex.EncodeToString([]byte(secret)), 60),
		"od -An -tx1":        odHex(secret),
		"url query":          url.QueryEscape(secret),
		"url path":           url.PathEscape(secret),
		"base64 std":         base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64 std raw":     base64.RawStdEncoding.EncodeToString([]byte(secret)),
		"base64 url":         base64.URLEncoding.EncodeToString([]byte(secret)),
		"base64 url raw":     base64.RawURLEncoding.EncodeToString([]byte(secret)),
		"base64 wrapped 76":  wrap(base64.StdEncoding.EncodeToString([]byte("export KEY="+secret+"\n")), 76),
		"base64 wrapped 20":  wrap(base64.StdEncoding.EncodeToString([]byte(secret)), 20),
		"base64 PEM (CR LF)": strings.ReplaceAll(wrap(base64.StdEncoding.EncodeToString([]byte(secret)), 16), "\n", "\r\n"),
	}
	// Inside a longer blob, at each of the three byte alignments.
	for k, pre := range []string{"", "x", "xy", "xyz"} {
		blob := pre + secret + "-and more bytes after it"
		out[fmt.Sprintf("base64 std in a blob, offset %d", k)] = base64.StdEncoding.EncodeToString([]byte(blob))
		out[fmt.Sprintf("base64 url in a blob, offset %d", k)] = base64.RawURLEncoding.EncodeToString([]byte(blob))
	}
	return out
}

// decoded tries every decoding an encoded form could need, to check that
// what is left tells nothing of the secret.
func leaks(out, secret string) bool {
	if strings.Contains(out, secret) {
		return true
	}
	flat := strings.NewReplacer("\n", "", "\r", "", " ", "").Replace(out)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		// Any stretch of the text that decodes, at any start.
		for i := 0; i < len(flat); i++ {
			for j := len(flat); j > i+8; j-- {
				if b, err := enc.DecodeString(flat[i:j]); err == nil && strings.Contains(string(b), secret[4:len(secret)-4]) {
					return true
				}
			}
		}
	}
	if b, err := hex.DecodeString(strings.ToLower(flat)); err == nil && strings.Contains(string(b), secret) {
		return true
	}
	if u, err := url.QueryUnescape(out); err == nil && strings.Contains(u, secret) {
		return true
	}
	return strings.Contains(reverse(out), secret)
}

func TestRedactEncodings(t *testing.T) {
	for _, secret := range []string{"sk-live-0123456789abcdef", "p@ss/w0rd+key=1?&x", "ghp_Z9yXwVuT8sRqPoN7"} {
		r := NewRedactor(map[string]string{"K": secret})
		for name, enc := range encodings(secret) {
			t.Run(fmt.Sprintf("%s/%s", secret[:4], name), func(t *testing.T) {
				in := "output: " + enc + " done"
				got := r.String(in)
				if !strings.Contains(got, "[redacted:K]") || leaks(got, secret) {
					t.Fatalf("String(%q) = %q", in, got)
				}
				if !strings.HasPrefix(got, "output: ") || !strings.HasSuffix(got, " done") {
					t.Errorf("text around the secret changed: %q", got)
				}
				// Streamed in small pieces, nothing stored leaks either.
				var stored strings.Builder
				held := ""
				for i := 0; i < len(in); i += 5 {
					show, h := r.Hold(held + in[i:min(i+5, len(in))])
					stored.WriteString(show)
					held = h
				}
				stored.WriteString(r.String(held))
				if leaks(stored.String(), secret) || !strings.Contains(stored.String(), "[redacted:K]") {
					t.Errorf("streamed: %q", stored.String())
				}
			})
		}
	}
}

// Ordinary text and data that merely share characters with a secret's
// encodings are left alone.
func TestRedactEncodingsLeaveOtherTextAlone(t *testing.T) {
	r := NewRedactor(map[string]string{"K": "sk-live-0123456789abcdef", "S": "short"})
	for _, in := range []string{
		"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
		"commit 7f3a9c0e5b21d4e6f8a0b2c4d6e8f0a1b3c5d7e9 (HEAD -> main)",
		"the quick brown fox jumps over the lazy dog\n and then sk-live is mentioned",
		hex.EncodeToString([]byte("short")) + " " + base64.StdEncoding.EncodeToString([]byte("short")) + " trohs", // too short to encode
		"https://example.com/search?q=sk-live+key%20docs",
	} {
		if got := r.String(in); got != in {
			t.Errorf("String(%q) = %q", in, got)
		}
	}
}

// A tool result holding a secret's encodings is stored redacted: in the
// event's text and in its JSON arguments.
func TestStoredToolResultRedactsEncodings(t *testing.T) {
	db, path, clock := openTest(t)
	const secret = "sk-live-0123456789abcdef"
	wantErr(t, db.SetSecret("openai_api_key", secret), nil)
	c := mustConv(t, db, "m")
	var text strings.Builder
	args := map[string]string{}
	for name, enc := range encodings(secret) {
		fmt.Fprintf(&text, "%s: %s\n", name, enc)
		args[name] = enc
	}
	raw, _ := json.Marshal(args)
	if _, err := db.AppendEvent(c.ID, Event{Type: EventToolResult, ToolName: "shell_exec", Text: text.String(), Arguments: raw}); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	evs, err := db.Events(c.ID)
	if err != nil || len(evs) != 1 {
		t.Fatalf("events %v, %v", evs, err)
	}
	if leaks(evs[0].Text, secret) || strings.Count(evs[0].Text, "[redacted:openai_api_key]") != len(args) {
		t.Errorf("stored text:\n%s", evs[0].Text)
	}
	if leaks(string(evs[0].Arguments), secret) || !json.Valid(evs[0].Arguments) {
		t.Errorf("stored arguments: %s", evs[0].Arguments)
	}
}

// The log handler redacts the message and every attribute, encodings
// included, with the secrets stored when the record is written.
func TestRedactingHandler(t *testing.T) {
	const secret = "sk-live-0123456789abcdef"
	var red *Redactor
	var buf bytes.Buffer
	log := slog.New(RedactingHandler(slog.NewTextHandler(&buf, nil), func() *Redactor { return red }))
	log.Info("before any secret "+secret, "v", secret)
	red = NewRedactor(map[string]string{"K": secret})
	for name, enc := range encodings(secret) {
		log.Warn("tool said "+enc, "case", name, "output", enc, "err", fmt.Errorf("failed: %s", enc),
			slog.Group("g", slog.String("inner", enc)))
	}
	log.With("bound", base64.StdEncoding.EncodeToString([]byte(secret))).Info("with")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if !strings.Contains(lines[0], secret) {
		t.Fatalf("redacted before the secret existed: %s", lines[0])
	}
	for _, l := range lines[1:] {
		if leaks(l, secret) {
			t.Errorf("log line leaks: %s", l)
		}
	}
	if n := strings.Count(buf.String(), "[redacted:K]"); n < 4*len(encodings(secret)) {
		t.Errorf("%d redactions in:\n%s", n, buf.String())
	}
}

// FuzzRedactString: whatever the text, no secret (alphanumeric, so it
// cannot straddle a placeholder) survives String or streaming through
// Hold, and text without a secret's form in it comes back as it was.
func FuzzRedactString(f *testing.F) {
	f.Add("key sk-live-0123 and c2stbGl2ZS0wMTIz\nmore", "sk-live-0123", 3)
	f.Add("3210-evil-ks 736b2d6c6976652d30313233", "sk-live-0123", 1)
	f.Add("plain text", "abcdefgh", 7)
	f.Fuzz(func(t *testing.T, text, secret string, piece int) {
		if len(secret) < MinRedactLen || !alnum(strings.ReplaceAll(secret, "-", "")) || strings.Contains("[redacted:K]", secret) {
			return
		}
		r := NewRedactor(map[string]string{"K": secret})
		out := r.String(text)
		if strings.Contains(out, secret) {
			t.Fatalf("String(%q) = %q keeps the secret", text, out)
		}
		if !strings.Contains(out, "[redacted:K]") && out != text {
			t.Fatalf("String(%q) = %q changed text without redacting", text, out)
		}
		piece = max(1, piece%64)
		var stored strings.Builder
		held := ""
		for i := 0; i < len(text); i += piece {
			show, h := r.Hold(held + text[i:min(i+piece, len(text))])
			if strings.Contains(show, secret) {
				t.Fatalf("Hold shows the secret: %q", show)
			}
			stored.WriteString(show)
			held = h
		}
		stored.WriteString(r.String(held))
		if strings.Contains(stored.String(), secret) {
			t.Fatalf("streamed %q stores the secret: %q", text, stored.String())
		}
	})
}
