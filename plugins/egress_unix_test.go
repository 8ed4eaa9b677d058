//go:build unix

package plugins

import (
	"context"
	"errors"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// unixServer listens on a unix socket at path until the test ends.
func unixServer(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
}

// A plugin with files reaches a unix socket in its folders and no other:
// not one elsewhere, not through a link in its folder, not a protected
// one inside it, not an abstract one; without files, none.
func TestEgressUnixSockets(t *testing.T) {
	// Short paths: a socket's name is limited to 108 bytes.
	base, err := os.MkdirTemp("", "eg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	granted, outside := filepath.Join(base, "g"), filepath.Join(base, "o")
	ws := filepath.Join(granted, "ws")
	inside, elsewhere, protected := filepath.Join(granted, "s.sock"), filepath.Join(outside, "docker.sock"), filepath.Join(ws, ".cache", "p.sock")
	for _, p := range []string{inside, elsewhere, protected} {
		unixServer(t, p)
	}
	link := filepath.Join(granted, "link.sock")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	noAccess, readOnly := workspace.Workspace{Root: ws}.Protected()
	files := &sdk.Env{Roots: []string{granted}, NoAccess: noAccess, ReadOnly: readOnly}
	cases := []struct {
		name    string
		files   *sdk.Env
		network string
		addr    string
		ok      bool
	}{
		{"a socket in its folder", files, "unix", inside, true},
		{"a socket elsewhere", files, "unix", elsewhere, false},
		{"a link in its folder to a socket elsewhere", files, "unix", link, false},
		{"a protected socket inside its folder", files, "unix", protected, false},
		{"an abstract socket", files, "unix", "@wrasse-test", false},
		{"a relative name", files, "unix", "s.sock", false},
		{"without files", nil, "unix", inside, false},
	}
	for _, tc := range cases {
		e := newEgress("probe", []string{"api.example.com"}, tc.files, func(context.Context, string) error { return nil })
		c, err := e.dial(context.Background(), nil, tc.network, tc.addr)
		if c != nil {
			c.Close()
		}
		if (err == nil) != tc.ok {
			t.Errorf("%s: dial %s: %v; want allowed %v", tc.name, tc.addr, err, tc.ok)
		}
		if err != nil && !errors.Is(err, sdk.ErrHostNotAllowed) {
			t.Errorf("%s: %v does not wrap ErrHostNotAllowed", tc.name, err)
		}
	}
}

// peerConn is a connection whose peer bound addr.
type peerConn struct {
	net.Conn
	addr string
}

func (c peerConn) RemoteAddr() net.Addr { return &net.UnixAddr{Name: c.addr, Net: "unix"} }

// The socket actually reached decides, not the name dialled: a peer
// bound outside the folders (a link swapped in after the check) is
// refused before anything is sent.
func TestEgressUnixPeer(t *testing.T) {
	granted := t.TempDir()
	e := newEgress("probe", nil, &sdk.Env{Roots: []string{granted}}, nil)
	for _, tc := range []struct {
		peer string
		ok   bool
	}{
		{filepath.Join(granted, "s.sock"), true},
		{"/var/run/docker.sock", false},
		{"", false},
		{"@abstract", false},
	} {
		err := e.peerAllowed(peerConn{addr: tc.peer}, filepath.Join(granted, "s.sock"))
		if (err == nil) != tc.ok {
			t.Errorf("peer %q: %v; want allowed %v", tc.peer, err, tc.ok)
		}
	}
}

// Listening: TCP only with any host declared; a unix socket only in the
// plugin's folders.
func TestEgressListen(t *testing.T) {
	granted := t.TempDir()
	files := &sdk.Env{Roots: []string{granted}}
	for _, tc := range []struct {
		name          string
		hosts         []string
		network, addr string
		ok            bool
		wantInRefusal string
	}{
		{"tcp with declared hosts", []string{"api.example.com"}, "tcp", "127.0.0.1:0", false, "declare any host"},
		{"tcp with any host", []string{"*"}, "tcp", "127.0.0.1:0", true, ""},
		{"a unix socket in its folder", []string{"api.example.com"}, "unix", filepath.Join(granted, "l.sock"), true, ""},
		{"a unix socket elsewhere", []string{"*"}, "unix", filepath.Join(t.TempDir(), "l.sock"), false, "may not use the unix socket"},
		{"udp", []string{"*"}, "udp", "127.0.0.1:0", false, "plugins listen on TCP"},
	} {
		e := newEgress("probe", tc.hosts, files, nil)
		ln, err := e.listen(tc.network, tc.addr)
		if ln != nil {
			ln.Close()
		}
		if (err == nil) != tc.ok || err != nil && !strings.Contains(err.Error(), tc.wantInRefusal) {
			t.Errorf("%s: %v; want allowed %v (%q)", tc.name, err, tc.ok, tc.wantInRefusal)
		}
	}
}
