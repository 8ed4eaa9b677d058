package store

import (
	"os/exec"
	"strings"
	"testing"
)

// What a sandboxed command prints with one everyday tool, run for real on
// a file holding a stored secret, must not carry the secret past the
// redaction into tool results, history and the log. The forms caught so
// far break when the tool puts an offset column between lines (od and xxd
// without -An/-p, hexdump -C), swaps byte pairs (od -x), separates bytes
// with something other than a space or line break (tab, comma), changes
// case (tr) or uses base32.
func TestRedactEverydayToolOutput(t *testing.T) {
	const secret = "sk-proj-Q7fz0123456789abcdefXYZ"
	r := NewRedactor(map[string]string{"openai_api_key": secret})
	tests := []struct {
		name string
		cmd  string
	}{
		{"od -c", "od -c"},
		{"od -tx1", "od -tx1"},
		{"od -x", "od -x"},
		{"xxd", "xxd"},
		{"hexdump -C", "hexdump -C"},
		{"tr a-z A-Z", "tr a-z A-Z"},
		{"base32", "base32"},
		{"tab between characters", `sed 's/./&\t/g'`},
		{"comma between characters", `sed 's/./&,/g'`},
		{"xxd -p -c1 | paste -sd,", "xxd -p -c1 | paste -sd,"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool := strings.Fields(tc.cmd)[0]
			if _, err := exec.LookPath(tool); err != nil {
				t.Skipf("%s is not installed", tool)
			}
			cmd := exec.Command("sh", "-c", "printf %s \"$S\" | "+tc.cmd)
			cmd.Env = append(cmd.Environ(), "S="+secret, "LC_ALL=C")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", tc.cmd, err)
			}
			got := r.String(string(out))
			if !strings.Contains(got, "[redacted:") {
				t.Errorf("%s printed the secret unredacted:\n%s", tc.cmd, got)
			}
		})
	}
}
