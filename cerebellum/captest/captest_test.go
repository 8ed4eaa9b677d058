package captest

import (
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

func TestGenerateIsDeterministicAndValid(t *testing.T) {
	a, b := Generate(200, 10, 7), Generate(200, 10, 7)
	plugins := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("capability %d differs between runs", i)
		}
		m, err := skillmd.Parse([]byte(a[i].SkillMD), skillmd.Options{Folder: a[i].Name})
		if err != nil {
			t.Fatalf("%s: %v", a[i].Name, err)
		}
		if len(m.Tools) != a[i].Tools || len(m.Warnings) != 0 {
			t.Fatalf("%s: %d tools (want %d), warnings %v", a[i].Name, len(m.Tools), a[i].Tools, m.Warnings)
		}
		if a[i].Plugin != "" {
			plugins++
		}
	}
	if plugins != 10 {
		t.Fatalf("plugins = %d, want 10", plugins)
	}
}
