//go:build unix

package cerebellum_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sandbox/sandboxtest"
)

// a35: codeFiles ignores walk errors ("unreadable: what it holds cannot run
// for this account either"). A folder that can be searched but not listed
// (mode 0311, made by the command itself, as the person's account) cannot
// be walked, yet every file in it can be opened by name: python finds the
// package json/ beside server.py (it lists the script's folder, then opens
// json/__init__.py by name), node requires ./lib/x.js, sh sources it.
// Folders are not entries of LaunchFiles, so the new folder and what it
// holds leave the approval as it was, and the next start imports it.
//
// Root reads every folder whatever its mode, so as root the test runs
// itself again as nobody (sandboxtest.RunAsNobody).
func TestA35UnlistableFolderHidesPlantedPackage(t *testing.T) {
	if os.Geteuid() == 0 {
		sandboxtest.RunAsNobody(t, t.Name())
		return
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	g := t.TempDir() // a granted folder
	server := filepath.Join(g, "server.py")
	if err := os.WriteFile(server, []byte("import json\nprint('server')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &skillmd.MCPServer{Command: python, Args: []string{server}, Env: map[string]string{"TOKEN": "tok-only-for-server"}}
	before := cerebellum.ApprovalKey(s, g)

	// What a sandboxed command does in the granted folder.
	marker := filepath.Join(g, "planted-ran")
	pkg := filepath.Join(g, "json")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), []byte("import os\nopen("+`"`+marker+`"`+", 'w').write(os.environ.get('TOKEN', ''))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(pkg, 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(pkg, 0o755) })

	after := cerebellum.ApprovalKey(s, g)
	// The start the approval lets through.
	cmd := exec.Command(python, server)
	cmd.Env = append(os.Environ(), "TOKEN=tok-only-for-server")
	out, _ := cmd.CombinedOutput()
	got, rerr := os.ReadFile(marker)
	var inG []string
	for _, f := range cerebellum.LaunchFiles(s, g) {
		if strings.HasPrefix(f, g) {
			inG = append(inG, f)
		}
	}
	if after == before && rerr == nil {
		t.Errorf("json/ (mode 0311) planted beside the approved %s: the approval is the same (%s) and python imported it (TOKEN=%q); LaunchFiles in the folder: %q (output %q)", server, after, got, inG, out)
	} else {
		t.Logf("approval changed: %v; planted code ran: %v (output %q)", after != before, rerr == nil, out)
	}
}
