package store

import (
	"encoding/hex"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// offsetCol is a dump's offset column at the start of a line.
var offsetCol = regexp.MustCompile(`(?m)^[0-9a-fA-F]{6,16}(:|\s)`)

// dumpLeaks says what of secret a redacted dump still shows: a stretch of
// six characters as text (in any case), or four bytes in hex, plain or
// with byte pairs swapped (od -x), once the offset columns are taken out.
func dumpLeaks(out, secret string) string {
	lower := strings.ToLower(out)
	for i := 0; i+6 <= len(secret); i++ {
		if w := strings.ToLower(secret[i : i+6]); strings.Contains(lower, w) {
			return fmt.Sprintf("the text %q", w)
		}
	}
	var digits strings.Builder
	for _, c := range []byte(strings.ToLower(offsetCol.ReplaceAllString(out, ""))) {
		if isHexDigit(c) {
			digits.WriteByte(c)
		}
	}
	h := digits.String()
	for i := 0; i+4 <= len(secret); i++ {
		w := []byte(secret[i : i+4])
		for _, f := range []string{hex.EncodeToString(w), hex.EncodeToString([]byte{w[1], w[0], w[3], w[2]})} {
			if strings.Contains(h, f) {
				return fmt.Sprintf("the hex %s of %q", f, w)
			}
		}
	}
	return ""
}

// Every dump layout of od, xxd and hexdump, run for real with the secret
// at each position of a 16-byte line (and so at both byte alignments of
// od -x's words), between other text: redacted whole (String) and
// streamed in small pieces (Hold), nothing of the secret is left but the
// odd byte at either end of od -x's words.
func TestRedactDumpsLeaveNoPiece(t *testing.T) {
	secrets := []string{"sk-proj-Q7fz0123456789abcdefXYZ", "ghp_Z9yXwVuT8sRqPoN7mLkJiHgFeDcBa0123456"}
	tools := []string{"od -c", "od -tx1", "od -x", "od -An -tx1", "xxd", "xxd -u", "xxd -g1", "hexdump -C", "hexdump", "xxd -p -c1 | paste -sd,"}
	for _, tool := range tools {
		if _, err := exec.LookPath(strings.Fields(tool)[0]); err != nil {
			t.Logf("%s is not installed", tool)
			continue
		}
		for _, secret := range secrets {
			r := NewRedactor(map[string]string{"K": secret})
			for pre := range 17 {
				text := strings.Repeat("=", pre) + secret + "\nand the next line of the file\n"
				cmd := exec.Command("sh", "-c", "printf %s \"$S\" | "+tool)
				cmd.Env = append(cmd.Environ(), "S="+text, "LC_ALL=C")
				raw, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: %v", tool, err)
				}
				out := string(raw)
				got := r.String(out)
				if leak := dumpLeaks(got, secret); leak != "" || !strings.Contains(got, "[redacted:K]") {
					t.Errorf("%s, secret at %d: %s shows %s:\n%s", tool, pre, secret[:4], leak, got)
					continue
				}
				for _, piece := range []int{1, 7, 64} {
					var stored strings.Builder
					held := ""
					for i := 0; i < len(out); i += piece {
						show, h := r.Hold(held + out[i:min(i+piece, len(out))])
						stored.WriteString(show)
						held = h
					}
					stored.WriteString(r.String(held))
					if leak := dumpLeaks(stored.String(), secret); leak != "" {
						t.Errorf("%s, secret at %d, streamed in %d-byte pieces: %s shows %s:\n%s", tool, pre, piece, secret[:4], leak, stored.String())
					}
				}
			}
		}
	}
}

// Text that looks like a dump's layout (lines starting with hex, two
// spaces inside a line, punctuation between characters) but holds no
// form of a secret is left alone, and so is a short secret's value
// written in another case or with separators inside.
func TestRedactDumpLayoutLeavesOtherTextAlone(t *testing.T) {
	r := NewRedactor(map[string]string{"K": "sk-live-0123456789abcdef", "S": "Pa55w"})
	for _, in := range []string{
		"0000000 73 6b 2d 6c 69 76 65\n0000010 2d 30 31 32 33\n",
		"commit 7f3a9c0e5b21d4e6f8a0b2c4d6e8f0a1b3c5d7e9\nAuthor: me\n\n    sk-live  is the prefix\n0123456 lines\n",
		"s,k,-,l,i,v,e are letters; 736b2d6c697665 is their hex  and more\n00000010: 2d30 3132\n",
		"pa55w PA55W P,a,5,5,w Pa-55w",
		"a  b\n00000000: c",
	} {
		if got := r.String(in); got != in {
			t.Errorf("String(%q) = %q", in, got)
		}
	}
}
