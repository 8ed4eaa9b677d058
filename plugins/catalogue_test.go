package plugins

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// lineOf is the 1-based line of the first line of src containing s.
func lineOf(src, s string) int {
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	return 0
}

// TestCatalogueSideDoors is the audit of the permission catalogue: each
// plugin tries one way to the disk or the network that its grants do not
// give, and is refused before it runs with file:line and what to do. at
// is the text on the refused line.
func TestCatalogueSideDoors(t *testing.T) {
	cases := []struct {
		name    string
		granted []string
		imports string
		body    string
		at      string
		want    error
		has     string
	}{
		// Temporary files behind pure packages.
		{name: "multipart ReadForm writes temp files", imports: `"mime/multipart"; "strings"`,
			body: "r := multipart.NewReader(strings.NewReader(\"\"), \"b\")\n\tform, err := r.ReadForm(1)\n\t_ = form\n\treturn nil, err",
			at:   "ReadForm", want: ErrPermission, has: ".ReadForm needs the files permission: mime/multipart.Reader.ReadForm writes large parts to temporary files"},
		{name: "FileHeader.Open needs a form from ReadForm", imports: `"mime/multipart"; "strings"`,
			body: "r := multipart.NewReader(strings.NewReader(\"\"), \"b\")\n\tform, _ := r.ReadForm(1)\n\tf, err := form.File[\"f\"][0].Open()\n\t_ = f\n\treturn nil, err",
			at:   "ReadForm", want: ErrPermission, has: "permission files"},
		{name: "ReadForm as a method value", imports: `"mime/multipart"; "strings"`,
			body: "read := multipart.NewReader(strings.NewReader(\"\"), \"b\").ReadForm\n\t_ = read\n\treturn nil, nil",
			at:   "ReadForm", want: ErrPermission, has: ".ReadForm needs the files permission"},
		{name: "http ParseMultipartForm", granted: []string{"network"}, imports: `"net/http"`,
			body: "req, _ := http.NewRequest(\"POST\", \"http://x\", nil)\n\treturn nil, req.ParseMultipartForm(1)",
			at:   "ParseMultipartForm", want: ErrPermission, has: "ParseMultipartForm writes large parts to temporary files"},
		{name: "http FormFile", granted: []string{"network"}, imports: `"net/http"`,
			body: "req, _ := http.NewRequest(\"POST\", \"http://x\", nil)\n\t_, _, err := req.FormFile(\"f\")\n\treturn nil, err",
			at:   "FormFile", want: ErrPermission, has: ".FormFile needs the files permission"},
		{name: "http FormValue", granted: []string{"network"}, imports: `"net/http"`,
			body: "req, _ := http.NewRequest(\"POST\", \"http://x\", nil)\n\treturn sdk.Text(req.FormValue(\"f\")), nil",
			at:   "FormValue", want: ErrPermission, has: ".FormValue needs the files permission"},
		{name: "os.CreateTemp", granted: []string{"env"}, imports: `"os"`,
			body: "f, err := os.CreateTemp(\"\", \"x\")\n\t_ = f\n\treturn nil, err",
			at:   "CreateTemp", want: ErrPermission, has: "os.CreateTemp needs the files permission"},
		{name: "os.MkdirTemp", granted: []string{"env"}, imports: `"os"`,
			body: "d, err := os.MkdirTemp(\"\", \"x\")\n\t_ = d\n\treturn nil, err",
			at:   "MkdirTemp", want: ErrPermission, has: "os.MkdirTemp needs the files permission"},
		{name: "os without any grant", imports: `"os"`,
			body: "f, err := os.CreateTemp(\"\", \"x\")\n\t_ = f\n\treturn nil, err",
			at:   `"os"`, want: ErrPermission, has: `import "os" needs the files permission`},
		{name: "ioutil.TempFile", imports: `"io/ioutil"`,
			body: "f, err := ioutil.TempFile(\"\", \"x\")\n\t_ = f\n\treturn nil, err",
			at:   "io/ioutil", want: ErrPermission, has: `import "io/ioutil" needs the files permission`},
		{name: "ioutil.TempDir", imports: `"io/ioutil"`,
			body: "d, err := ioutil.TempDir(\"\", \"x\")\n\t_ = d\n\treturn nil, err",
			at:   "io/ioutil", want: ErrPermission, has: `import "io/ioutil" needs the files permission`},
		{name: "os.DirFS", granted: []string{"env"}, imports: `"io/fs"; "os"`,
			body: "b, err := fs.ReadFile(os.DirFS(\"/\"), \"etc/passwd\")\n\treturn sdk.Text(string(b)), err",
			at:   "DirFS", want: ErrPermission, has: "os.DirFS needs the files permission"},
		{name: "io/fs on an os root", imports: `"io/fs"; "os"`,
			body: "b, err := fs.ReadFile(os.DirFS(\"/\"), \"etc/passwd\")\n\treturn sdk.Text(string(b)), err",
			at:   `"os"`, want: ErrPermission, has: `import "os" needs the files permission`},
		{name: "archive/zip.OpenReader", imports: `"archive/zip"`,
			body: "r, err := zip.OpenReader(\"/etc/passwd\")\n\t_ = r\n\treturn nil, err",
			at:   "OpenReader", want: ErrPermission, has: "zip.OpenReader needs the files permission"},
		{name: "filepath.WalkDir", imports: `"path/filepath"; "io/fs"`,
			body: "return nil, filepath.WalkDir(\"/\", func(string, fs.DirEntry, error) error { return nil })",
			at:   "WalkDir", want: ErrPermission, has: "filepath.WalkDir needs the files permission"},
		{name: "text/template ParseFiles", imports: `"text/template"`,
			body: "_, err := template.ParseFiles(\"/etc/passwd\")\n\treturn nil, err",
			at:   "text/template", want: ErrPermission, has: `import "text/template" needs the files permission`},
		{name: "log.SetOutput to a file", granted: []string{"env"}, imports: `"log"; "os"`,
			body: "f, _ := os.Create(\"/tmp/x.log\")\n\tlog.SetOutput(f)\n\treturn nil, nil",
			at:   "os.Create", want: ErrPermission, has: "os.Create needs the files permission"},
		{name: "log.SetOutput to Wrasse's stderr", granted: []string{"env"}, imports: `"log"; "os"`,
			body: "log.SetOutput(os.Stderr)\n\treturn nil, nil",
			at:   "os.Stderr", want: ErrImport, has: "os.Stderr is not available"},

		// Connections.
		{name: "net.Dial", imports: `"net"`, body: "c, err := net.Dial(\"tcp\", \"example.com:80\")\n\t_ = c\n\treturn nil, err",
			at: `"net"`, want: ErrPermission, has: `import "net" needs the network permission`},
		{name: "net.Listen", imports: `"net"`, body: "l, err := net.Listen(\"tcp\", \":0\")\n\t_ = l\n\treturn nil, err",
			at: `"net"`, want: ErrPermission, has: `import "net" needs the network permission`},
		{name: "http client", imports: `"net/http"`, body: "_, err := (&http.Client{Transport: &http.Transport{}}).Get(\"http://example.com\")\n\treturn nil, err",
			at: `"net/http"`, want: ErrPermission, has: `import "net/http" needs the network permission`},
		{name: "net/smtp", imports: `"net/smtp"`, body: "return nil, smtp.SendMail(\"x:25\", nil, \"a\", nil, nil)",
			at: `"net/smtp"`, want: ErrPermission, has: `import "net/smtp" needs the network permission`},
		{name: "crypto/tls.Dial", imports: `"crypto/tls"`, body: "c, err := tls.Dial(\"tcp\", \"x:443\", nil)\n\t_ = c\n\treturn nil, err",
			at: `"crypto/tls"`, want: ErrPermission, has: `import "crypto/tls" needs the network permission`},
		{name: "net/rpc even with network", granted: []string{"network"}, imports: `"net/rpc"`, body: "c, err := rpc.Dial(\"tcp\", \"x:1\")\n\t_ = c\n\treturn nil, err",
			at: `"net/rpc"`, want: ErrImport, has: `import "net/rpc" is not available to plugins that do not ship with Wrasse`},
		{name: "unix socket by name", granted: []string{"network"}, imports: `"net"`,
			body: "c, err := net.Dial(\"unix\", \"/var/run/docker.sock\")\n\t_ = c\n\treturn nil, err",
			at:   "docker.sock", want: ErrPermission, has: `net.Dial("unix", ...): a unix socket is a file and needs the files permission`},
		{name: "unix socket through a Dialer", granted: []string{"network"}, imports: `"net"`,
			body: "var d net.Dialer\n\tc, err := d.DialContext(ctx, \"unixpacket\", \"/run/x\")\n\t_ = c\n\treturn nil, err",
			at:   "unixpacket", want: ErrPermission, has: "a unix socket is a file"},
		{name: "network computed at run time", granted: []string{"network"}, imports: `"net"`,
			body: "var d net.Dialer\n\tnetwork := req.String(\"n\", \"tcp\")\n\tc, err := d.DialContext(ctx, network, \"x:1\")\n\t_ = c\n\treturn nil, err",
			at:   "d.DialContext", want: ErrPermission, has: "pass the network as a string literal"},
		{name: "dial function as a value", granted: []string{"network"}, imports: `"net"`,
			body: "dial := net.Dial\n\t_ = dial\n\treturn nil, nil",
			at:   "net.Dial", want: ErrPermission, has: "net.Dial used as a value"},
		{name: "unix socket through http.Transport", granted: []string{"network"}, imports: `"net/http"`,
			body: "c, err := http.DefaultTransport.(*http.Transport).DialContext(ctx, \"unix\", \"/var/run/docker.sock\")\n\t_ = c\n\treturn nil, err",
			at:   "docker.sock", want: ErrPermission, has: "a unix socket is a file"},
		{name: "net.DialUnix", granted: []string{"network"}, imports: `"net"`,
			body: "c, err := net.DialUnix(\"unix\", nil, nil)\n\t_ = c\n\treturn nil, err",
			at:   "DialUnix", want: ErrPermission, has: "net.DialUnix needs the files permission"},
		{name: "net.ListenUnix", granted: []string{"network"}, imports: `"net"`,
			body: "l, err := net.ListenUnix(\"unix\", nil)\n\t_ = l\n\treturn nil, err",
			at:   "ListenUnix", want: ErrPermission, has: "net.ListenUnix needs the files permission"},
		{name: "http.Dir reads any file", granted: []string{"network"}, imports: `"net/http"`,
			body: "f, err := http.Dir(\"/\").Open(\"/etc/passwd\")\n\t_ = f\n\treturn nil, err",
			at:   "http.Dir", want: ErrPermission, has: "http.Dir needs the files permission"},
		{name: "http.ServeFile", granted: []string{"network"}, imports: `"net/http"`,
			body: "http.ServeFile(nil, nil, \"/etc/passwd\")\n\treturn nil, nil",
			at:   "ServeFile", want: ErrPermission, has: "http.ServeFile needs the files permission"},
		{name: "http.ListenAndServeTLS", granted: []string{"network"}, imports: `"net/http"`,
			body: "return nil, http.ListenAndServeTLS(\":0\", \"/etc/passwd\", \"/etc/shadow\", nil)",
			at:   "ListenAndServeTLS", want: ErrPermission, has: "http.ListenAndServeTLS needs the files permission"},
		{name: "Server.ServeTLS", granted: []string{"network"}, imports: `"net/http"`,
			body: "return nil, (&http.Server{}).ServeTLS(nil, \"/etc/passwd\", \"/etc/shadow\")",
			at:   "ServeTLS", want: ErrPermission, has: ".ServeTLS needs the files permission"},
		{name: "tls.LoadX509KeyPair", granted: []string{"network"}, imports: `"crypto/tls"`,
			body: "_, err := tls.LoadX509KeyPair(\"/home/u/.ssh/id_rsa\", \"/home/u/.ssh/id_rsa\")\n\treturn nil, err",
			at:   "LoadX509KeyPair", want: ErrPermission, has: "tls.LoadX509KeyPair needs the files permission"},

		// Processes and the runtime.
		{name: "os/exec", imports: `"os/exec"`, body: "return nil, exec.Command(\"sh\").Run()",
			at: `"os/exec"`, want: ErrPermission, has: `import "os/exec" needs the exec permission`},
		{name: "os.StartProcess with files", granted: []string{"files"}, imports: `"os"`,
			body: "p, err := os.StartProcess(\"/bin/sh\", nil, nil)\n\t_ = p\n\treturn nil, err",
			at:   "StartProcess", want: ErrPermission, has: "os.StartProcess needs the exec permission"},
		{name: "syscall", granted: []string{"files", "network", "exec", "env"}, imports: `"syscall"`, body: "return nil, syscall.Unlink(\"/x\")",
			at: `"syscall"`, want: ErrImport, has: `import "syscall" is not available to plugins`},
		{name: "unsafe", granted: []string{"files", "network", "exec", "env"}, imports: `"unsafe"`, body: "_ = unsafe.Pointer(nil)\n\treturn nil, nil",
			at: `"unsafe"`, want: ErrImport, has: `import "unsafe" is not available to plugins`},
		{name: "plugin package", imports: `"plugin"`, body: "_, err := plugin.Open(\"/x.so\")\n\treturn nil, err",
			at: `"plugin"`, want: ErrDialect, has: `import "plugin": the package is not in the interpreter's standard library`},
		{name: "reflect reaches unexported fields", imports: `"reflect"`, body: "_ = reflect.ValueOf(req).Elem().Field(0)\n\treturn nil, nil",
			at: `"reflect"`, want: ErrImport, has: `import "reflect" is not available to plugins that do not ship with Wrasse`},
		{name: "embed", imports: `_ "embed"`, body: "return nil, nil",
			at: `"embed"`, want: ErrDialect, has: "//go:embed is not supported"},
		{name: "runtime/debug.SetMaxStack", imports: `"runtime/debug"`, body: "debug.SetMaxStack(1 << 40)\n\treturn nil, nil",
			at: `"runtime/debug"`, want: ErrImport, has: `import "runtime/debug" is not available to plugins that do not ship with Wrasse`},
		{name: "runtime/debug.SetGCPercent", granted: []string{"files", "network", "exec", "env"}, imports: `"runtime/debug"`, body: "debug.SetGCPercent(-1)\n\treturn nil, nil",
			at: `"runtime/debug"`, want: ErrImport, has: `import "runtime/debug" is not available`},
		{name: "runtime", imports: `"runtime"`, body: "runtime.GOMAXPROCS(64)\n\treturn nil, nil",
			at: `"runtime"`, want: ErrImport, has: `import "runtime" is not available`},
		{name: "os/user reads the user database", imports: `"os/user"`, body: "_, err := user.Lookup(\"root\")\n\treturn nil, err",
			at: `"os/user"`, want: ErrImport, has: `import "os/user" is not available`},
		{name: "log/syslog dials", granted: []string{"network"}, imports: `"log/syslog"`, body: "_, err := syslog.Dial(\"tcp\", \"x:514\", 0, \"t\")\n\treturn nil, err",
			at: `"log/syslog"`, has: `"log/syslog"`},

		// What the grants do allow still loads.
		{name: "tcp with network", granted: []string{"network"}, imports: `"net"; "time"`,
			body: "var d net.Dialer\n\t_ = d.DialContext\n\treturn nil, nil",
			at:   "DialContext", want: ErrPermission, has: "used as a value"},
		{name: "literal tcp with network loads", granted: []string{"network"}, imports: `"net"; "time"`,
			body: "if req.Bool(\"dial\", false) {\n\t\tc, err := net.DialTimeout(\"tcp\", \"127.0.0.1:1\", time.Second)\n\t\t_ = c\n\t\treturn nil, err\n\t}\n\treturn sdk.Text(\"ok\"), nil"},
		{name: "multipart writer is pure", imports: `"bytes"; "mime/multipart"`,
			body: "var b bytes.Buffer\n\tw := multipart.NewWriter(&b)\n\t_ = w.WriteField(\"a\", \"b\")\n\treturn sdk.Text(\"ok\"), w.Close()"},
		{name: "unix socket with files", granted: []string{"network", "files"}, imports: `"net"`,
			body: "if req.Bool(\"dial\", false) {\n\t\tc, err := net.Dial(\"unix\", \"/nonexistent.sock\")\n\t\t_ = c\n\t\treturn nil, err\n\t}\n\treturn sdk.Text(\"ok\"), nil"},
	}
	h := NewHost(Options{Logger: discard()})
	pos := regexp.MustCompile(`plugin/main\.go:(\d+):\d+: `)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := wrap(tc.imports, "\t"+tc.body)
			err := h.Check(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), false, tc.granted...))
			if tc.has == "" {
				if err != nil {
					t.Fatalf("Check: %v; want it to load", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Check loaded a plugin that tries %s", tc.name)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("Check: %v; want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.has) {
				t.Errorf("Check: %q does not say %q", err, tc.has)
			}
			want := lineOf(src, tc.at)
			m := pos.FindStringSubmatch(err.Error())
			if want == 0 || m == nil || m[1] != fmt.Sprint(want) {
				t.Errorf("Check: %q; want the problem at plugin/main.go:%d (the line with %q)", err, want, tc.at)
			}
		})
	}
}

// A FileHeader made by the plugin has no content and no temporary file:
// the file's path is unexported and set only by ReadForm, which needs
// files. So Open reaches no file, whatever Filename says (it tries the
// empty name and fails).
func TestFileHeaderOpenReadsNoFile(t *testing.T) {
	src := wrap(`"io"; "mime/multipart"`, `fh := &multipart.FileHeader{Filename: "/etc/passwd", Size: 4096}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return sdk.Text(string(b)), err`)
	rt, err := NewHost(Options{Logger: discard()}).Load(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res, err := rt.Call(t.Context(), "run", nil)
	if err != nil || !res.IsError || !strings.HasPrefix(res.Content, "open : ") {
		t.Fatalf("call: %+v %v; want Open to fail on the empty name", res, err)
	}
}
