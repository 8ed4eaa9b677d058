package quietlocale

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// childEnv makes the test binary print what the package did at its init
// and what Restore and Apply leave, then exit.
const childEnv = "QUIETLOCALE_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		atInit, _ := os.LookupEnv(variable)
		Restore()
		_, afterRestore := os.LookupEnv(variable)
		Apply()
		afterApply, _ := os.LookupEnv(variable)
		fmt.Printf("init=%q restore=%v apply=%q", atInit, afterRestore, afterApply)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestInitRestoreApply(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"C.UTF-8 sets English until Restore", []string{"LANG=C.UTF-8"}, `init="en" restore=false apply="en"`},
		{"LC_ALL wins over LANG", []string{"LC_ALL=C.utf8", "LANG=fr_FR.UTF-8"}, `init="en" restore=false apply="en"`},
		{"C@modifier", []string{"LC_MESSAGES=C@euro"}, `init="en" restore=false apply="en"`},
		{"plain C is left to the toolkit", []string{"LANG=C"}, `init="" restore=false apply=""`},
		{"a real locale is left alone", []string{"LANG=de_DE.UTF-8"}, `init="" restore=false apply=""`},
		{"the person's LANGUAGE is kept", []string{"LANG=C.UTF-8", "LANGUAGE=fr"}, `init="fr" restore=true apply="fr"`},
		{"Canada is no C locale", []string{"LANG=CA.UTF-8"}, `init="" restore=false apply=""`},
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var env []string
			for _, kv := range os.Environ() {
				switch k, _, _ := strings.Cut(kv, "="); k {
				case "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES":
				default:
					env = append(env, kv)
				}
			}
			cmd := exec.CommandContext(t.Context(), exe)
			cmd.Env = append(append(env, childEnv+"=1"), tt.env...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got %s, want %s", out, tt.want)
			}
		})
	}
}
