package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func TestInitRegistersDeclaredTools(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := skillmd.Parse(data, skillmd.Options{Folder: "web"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Init(&sdk.Env{Name: "web"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var declared []string
	for _, tool := range m.Tools {
		declared = append(declared, tool.Name)
	}
	if got, want := strings.Join(p.ToolNames(), ","), strings.Join(declared, ","); got != want {
		t.Fatalf("registered %s, declared %s", got, want)
	}
}

func server(t *testing.T) *httptest.Server {
	t.Helper()
	page, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.UserAgent(), "Wrasse/") {
			http.Error(w, "no UA", 400)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"b":[1,2],"a":"x"}`))
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("just text\n"))
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=ISO-8859-1")
		w.Write([]byte("caf\xe9"))
	})
	mux.HandleFunc("/image.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("0123456789", 1000)))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page", http.StatusNotFound)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/plain", http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) {
		u, _ := url.Parse("http://" + r.Host + "/plain")
		u.Host = strings.Replace(u.Host, "127.0.0.1", "localhost", 1)
		http.Redirect(w, r, u.String(), http.StatusFound)
	})
	mux.HandleFunc("/ftp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://127.0.0.1/x", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// allowHosts is a host check allowing the hosts listed, recording every
// URL it is asked about.
func allowHosts(asked *[]string, hosts ...string) sdk.HostCheck {
	return func(_ context.Context, raw string) error {
		*asked = append(*asked, raw)
		u, err := url.Parse(raw)
		if err != nil {
			return err
		}
		for _, h := range hosts {
			if h == u.Hostname() {
				return nil
			}
		}
		return fmt.Errorf("%w: %s", sdk.ErrHostNotAllowed, u.Hostname())
	}
}

func fetch(t *testing.T, hosts []string, args map[string]any) (string, error) {
	t.Helper()
	var asked []string
	return fetchChecked(t, hosts, args, allowHosts(&asked, "127.0.0.1", "localhost"))
}

// fetchChecked fetches with check installed on the call's context (nil:
// none, as when no host installed one).
func fetchChecked(t *testing.T, hosts []string, args map[string]any, check sdk.HostCheck) (string, error) {
	t.Helper()
	p, err := Init(&sdk.Env{Name: "web", Hosts: hosts})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	raw, _ := json.Marshal(args)
	req, err := sdk.NewRequest("web_fetch", raw)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if check != nil {
		ctx = sdk.WithHostCheck(ctx, check)
	}
	res, err := p.Handler("web_fetch")(ctx, req)
	if err != nil {
		var te *sdk.ToolError
		if !errors.As(err, &te) {
			t.Errorf("error is not a *sdk.ToolError: %v", err)
		}
		return "", err
	}
	return res.Text, nil
}

func TestFetch(t *testing.T) {
	srv := server(t)
	local := []string{"127.0.0.1"}
	tests := []struct {
		name    string
		hosts   []string
		args    map[string]any
		want    []string
		notWant []string
		errWant string
	}{
		{name: "html", hosts: local, args: map[string]any{"url": srv.URL + "/page"},
			want: []string{"URL: " + srv.URL + "/page\n", "Status: 200 OK\n", "Content-Type: text/html; charset=utf-8\n",
				"Title: Tide Pools & Wrasse | Reef Notes\n", "# Cleaner Wrasse", "- Length: up to 14 cm",
				"[Indo-Pacific](" + srv.URL + "/regions/indo-pacific?x=1&y=2)"},
			notWant: []string{"alert(", "Privacy", "color: red"}},
		{name: "json pretty", hosts: local, args: map[string]any{"url": srv.URL + "/data.json"}, want: []string{"{\n  \"b\": [\n    1,\n    2\n  ],\n  \"a\": \"x\"\n}"}},
		{name: "plain", hosts: local, args: map[string]any{"url": srv.URL + "/plain"}, want: []string{"\n\njust text\n"}},
		{name: "latin1", hosts: local, args: map[string]any{"url": srv.URL + "/latin1"}, want: []string{"café"}},
		{name: "binary", hosts: local, args: map[string]any{"url": srv.URL + "/image.png"}, want: []string{"(10 bytes of image/png content, not shown as text)"}},
		{name: "truncated", hosts: local, args: map[string]any{"url": srv.URL + "/big", "max_bytes": 1000}, want: []string{"[... truncated: showing 1000 of 10000 bytes"}},
		{name: "error status", hosts: local, args: map[string]any{"url": srv.URL + "/missing"}, want: []string{"Status: 404 Not Found", "error status", "no such page"}},
		{name: "redirect followed", hosts: local, args: map[string]any{"url": srv.URL + "/redirect"}, want: []string{"URL: " + srv.URL + "/plain\n", "just text"}},
		{name: "redirect loop", hosts: local, args: map[string]any{"url": srv.URL + "/loop"}, errWant: "stopped after 5 redirects"},
		{name: "redirect to other host", hosts: local, args: map[string]any{"url": srv.URL + "/elsewhere"}, errWant: "host localhost is not allowed"},
		{name: "redirect to ftp", hosts: local, args: map[string]any{"url": srv.URL + "/ftp"}, errWant: "only http and https"},
		{name: "host not allowed", hosts: []string{"example.com"}, args: map[string]any{"url": srv.URL + "/page"}, errWant: "host 127.0.0.1 is not allowed (allowed: example.com)"},
		{name: "no hosts", hosts: nil, args: map[string]any{"url": srv.URL + "/page"}, errWant: "allowed: none"},
		{name: "wildcard refuses private address", hosts: []string{"*"}, args: map[string]any{"url": srv.URL + "/page"}, errWant: "local or private address"},
		{name: "scheme", hosts: []string{"*"}, args: map[string]any{"url": "file:///etc/passwd"}, errWant: "only http and https"},
		{name: "empty", hosts: []string{"*"}, args: map[string]any{"url": " "}, errWant: "url is empty"},
		{name: "bad url", hosts: []string{"*"}, args: map[string]any{"url": "http://[::1"}, errWant: "not a valid URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := fetch(t, tc.hosts, tc.args)
			if tc.errWant != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errWant) {
					t.Fatalf("error = %v, want it to mention %q", err, tc.errWant)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output contains %q", w)
				}
			}
		})
	}
}

// Every request asks the call's host check, each redirect too, with the
// full URL; a refusal stops the fetch before anything is sent there, and
// no check at all refuses.
func TestFetchAsksTheHostCheck(t *testing.T) {
	srv := server(t)
	local := []string{"127.0.0.1", "localhost"}
	var asked []string
	out, err := fetchChecked(t, local, map[string]any{"url": srv.URL + "/redirect?q=1"}, allowHosts(&asked, "127.0.0.1"))
	if err != nil || !strings.Contains(out, "just text") {
		t.Fatalf("%q, %v", out, err)
	}
	if want := []string{srv.URL + "/redirect?q=1", srv.URL + "/plain"}; strings.Join(asked, " ") != strings.Join(want, " ") {
		t.Errorf("asked about %q, want %q", asked, want)
	}
	asked = nil
	_, err = fetchChecked(t, local, map[string]any{"url": srv.URL + "/elsewhere"}, allowHosts(&asked, "127.0.0.1"))
	if err == nil || !strings.Contains(err.Error(), "the redirect to http://localhost:") || !strings.Contains(err.Error(), "network host not allowed") {
		t.Fatalf("redirect to another host: %v", err)
	}
	if len(asked) != 2 || !strings.HasPrefix(asked[1], "http://localhost:") {
		t.Errorf("asked about %q", asked)
	}
	if _, err := fetchChecked(t, local, map[string]any{"url": srv.URL + "/plain"}, nil); err == nil || !strings.Contains(err.Error(), "network host not allowed") {
		t.Errorf("without a host check: %v", err)
	}
}

func TestAllowed(t *testing.T) {
	f := &fetcher{env: &sdk.Env{Hosts: []string{"example.com", "*.go.dev"}}}
	for host, want := range map[string]bool{
		"example.com": true, "EXAMPLE.com": true, "www.example.com": false,
		"pkg.go.dev": true, "go.dev": false, "evilgo.dev": false, "other.org": false,
	} {
		if got := f.allowed(host); got != want {
			t.Errorf("allowed(%s) = %v, want %v", host, got, want)
		}
	}
}

func TestRender(t *testing.T) {
	tests := []struct {
		body, ctype, want, kind string
	}{
		{body: `{"a":1}`, ctype: "application/problem+json", want: "{\n  \"a\": 1\n}", kind: "json"},
		{body: `{bad`, ctype: "application/json", want: "{bad", kind: "text"},
		{body: "<p>hi</p>", ctype: "", want: "hi", kind: "html"},
		{body: "a,b\n1,2\n", ctype: "text/csv", want: "a,b\n1,2\n", kind: "text"},
		{body: "\x00\x01\x02", ctype: "application/octet-stream", want: "", kind: "binary"},
		{body: "key: v", ctype: "application/octet-stream", want: "key: v", kind: "text"},
	}
	for _, tc := range tests {
		got, _, kind := render([]byte(tc.body), tc.ctype, "https://x/")
		if got != tc.want || kind != tc.kind {
			t.Errorf("render(%q, %q) = %q, %s; want %q, %s", tc.body, tc.ctype, got, kind, tc.want, tc.kind)
		}
	}
	if got := truncateUTF8("héllo", 2); got != "h" {
		t.Errorf("truncateUTF8 = %q", got)
	}
}
