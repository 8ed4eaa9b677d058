package assistant

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

func TestPolicyRootsAndHosts(t *testing.T) {
	home := filepath.FromSlash("/home/ann")
	p := Policy{Folders: []string{"~/work", "/data"}, Home: home, Workspace: "/ws"}
	builtin := &cerebellum.Capability{Name: "filesystem", Source: cerebellum.SourceBuiltin}
	scoped := &cerebellum.Capability{Name: "notes", Source: cerebellum.SourceWorkspace,
		Manifest: &skillmd.Manifest{Permissions: skillmd.Permissions{"files": {"~/work/notes", "/etc", "/data"}, "network": {"api.example.com"}}}}
	open := &cerebellum.Capability{Name: "any", Source: cerebellum.SourceWorkspace, Manifest: &skillmd.Manifest{}}
	tests := []struct {
		name    string
		p       Policy
		c       *cerebellum.Capability
		granted []string
		roots   []string
		hosts   []string
	}{
		{"trusted gets folders and the workspace", p, builtin, nil, []string{"/home/ann/work", "/data", "/ws"}, []string{"*"}},
		{"untrusted without files gets nothing", p, scoped, nil, nil, nil},
		{"scope kept inside the configured folders", p, scoped, []string{"files"}, []string{"/home/ann/work/notes", "/data"}, nil},
		{"network narrowed to the declared hosts", p, scoped, []string{"network"}, nil, []string{"api.example.com"}},
		{"no scope means every configured folder", p, open, []string{"files", "network"}, []string{"/home/ann/work", "/data"}, []string{"*"}},
		{"no folders configured means none, not home", Policy{Home: home, Workspace: "/ws"}, open, []string{"files"}, nil, nil},
		{"trusted with no folders configured gets the workspace alone", Policy{Home: home, Workspace: "/ws"}, builtin, nil, []string{"/ws"}, []string{"*"}},
		{"unknown capability is untrusted", p, nil, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Roots(tt.c, tt.granted); !slices.Equal(got, tt.roots) {
				t.Errorf("Roots = %q, want %q", got, tt.roots)
			}
			if got := tt.p.Hosts(tt.c, tt.granted); !slices.Equal(got, tt.hosts) {
				t.Errorf("Hosts = %q, want %q", got, tt.hosts)
			}
		})
	}
}

func TestPolicyIgnoresLookalikePrefixes(t *testing.T) {
	p := Policy{Folders: []string{"/data"}, Home: "/home/ann"}
	c := &cerebellum.Capability{Source: cerebellum.SourceWorkspace,
		Manifest: &skillmd.Manifest{Permissions: skillmd.Permissions{"files": {"/data-secret", "/data/../etc"}}}}
	if got := p.Roots(c, []string{"files"}); len(got) != 0 {
		t.Fatalf("Roots = %q; a sibling with the same prefix or a path climbing out must not count", got)
	}
}

func TestNarrowHosts(t *testing.T) {
	tests := []struct {
		hosts, allowed, want []string
	}{
		{[]string{"*"}, nil, []string{"*"}},
		{[]string{"*"}, []string{"*"}, []string{"*"}},
		{[]string{"*"}, []string{"docs.go.dev", "*.example.com"}, []string{"docs.go.dev", "*.example.com"}},
		{[]string{"api.example.com", "evil.org"}, []string{"*.example.com"}, []string{"api.example.com"}},
		{[]string{"API.Example.com"}, []string{"api.example.com"}, []string{"API.Example.com"}},
		{nil, []string{"x.org"}, nil},
	}
	for _, tt := range tests {
		if got := NarrowHosts(tt.hosts, tt.allowed); !slices.Equal(got, tt.want) {
			t.Errorf("NarrowHosts(%q, %q) = %q, want %q", tt.hosts, tt.allowed, got, tt.want)
		}
	}
}

func TestWebAllowedHostsSettingNarrowsTheHosts(t *testing.T) {
	a := openTest(t)
	if got := a.pluginHosts("web", nil); !slices.Equal(got, []string{"*"}) {
		t.Fatalf("web hosts by default = %q", got)
	}
	if err := a.SetSetting("web", AllowedHostsSetting, "docs.go.dev,*.example.com"); err != nil {
		t.Fatal(err)
	}
	if got := a.pluginHosts("web", nil); !slices.Equal(got, []string{"docs.go.dev", "*.example.com"}) {
		t.Fatalf("web hosts after the setting = %q", got)
	}
}
