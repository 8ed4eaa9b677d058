package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Under LANG=C.UTF-8 (Debian's and Ubuntu's containers, minimal installs)
// the CLI prints its output and nothing of the toolkit's: the toolkit
// logged "Fyne error: Error parsing user locale C" at init, before every
// command's output.
func TestCLIUnderCLocaleLogsNoLocaleError(t *testing.T) {
	tests := []struct {
		name string
		env  []string
	}{
		{"LANG=C.UTF-8", []string{"LANG=C.UTF-8"}},
		{"LC_ALL=C.utf8", []string{"LC_ALL=C.utf8", "LANG=en_US.UTF-8"}},
		{"LANG=POSIX.UTF-8", []string{"LANG=POSIX.UTF-8"}},
		{"LANG=C", []string{"LANG=C"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), testBinary(t), "--workspace", t.TempDir(), "caps", "list")
			var env []string
			for _, kv := range os.Environ() {
				switch k, _, _ := strings.Cut(kv, "="); k {
				case "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES":
				default:
					env = append(env, kv)
				}
			}
			cmd.Env = append(append(env, asWrasseEnv+"=1"), tt.env...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				t.Fatalf("caps list: %v\n%s", err, errb.String())
			}
			if errb.Len() != 0 {
				t.Errorf("stderr is not empty:\n%s", errb.String())
			}
			if !strings.HasPrefix(out.String(), "NAME") {
				t.Errorf("stdout does not start with the list:\n%s", out.String())
			}
		})
	}
}
