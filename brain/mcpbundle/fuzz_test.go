package mcpbundle

import (
	"strings"
	"testing"
)

// FuzzParseManifest: any manifest.json is parsed or refused without a
// panic, and one that parses plans and renders a SKILL.md or refuses.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(strings.Replace(minimal, "%s", "", 1)))
	f.Add([]byte(strings.Replace(minimal, "%s", `,"user_config":{"k":{"type":"string","title":"K","sensitive":true,"default":"x"},"n":{"type":"number","title":"N","default":2,"min":1}}`, 1)))
	f.Add([]byte(`{"dxt_version":"0.1","name":"x","server":{"mcp_config":{"platform_overrides":{"linux":{"args":["${user_config.a}"]}}}}}`))
	f.Add([]byte(`{"user_config":{"d":{"type":"directory","multiple":true,"default":["${HOME}",1]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data, nil, "linux")
		if err != nil {
			return
		}
		b := &Bundle{Manifest: m, Name: CapabilityName(m.Name)}
		l, err := b.Plan(nil, Folders{Home: "/home/x"})
		if err != nil {
			return
		}
		for _, v := range l.Env {
			if strings.Contains(v, "${user_config.") {
				t.Fatalf("unsubstituted %q", v)
			}
		}
		_, _ = b.SkillMD(l)
	})
}
