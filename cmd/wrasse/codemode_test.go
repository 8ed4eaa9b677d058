package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sumArchives is the benchmark task as the model writes it in code mode:
// list 20 archives and sum what they hold, one program instead of twenty
// calls. archive is not loaded, so the program calls it by name (it loads
// on the first call).
const sumArchives = `package main

import (
	"fmt"
	"strconv"
	"strings"
)

func main() {
	total := 0
	for i := 1; i <= 20; i++ {
		out, err := call("archive_list", map[string]any{"path": fmt.Sprintf("archives/a%02d.zip", i)})
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		// "archives/a01.zip: zip archive, 1 entries, 1 files, 101 B uncompressed"
		f := strings.Fields(strings.SplitN(out, "\n", 2)[0])
		n, err := strconv.Atoi(f[len(f)-3])
		if err != nil {
			fmt.Println("cannot read", f)
			return
		}
		total += n
	}
	fmt.Printf("20 archives, %d bytes uncompressed\n", total)
}
`

// writeArchives writes archives/a01.zip … a20.zip into dir, archive i
// holding one file of 100+i bytes; it returns their total.
func writeArchives(t *testing.T, root string) int {
	t.Helper()
	dir := filepath.Join(root, "archives")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	total := 0
	for i := 1; i <= 20; i++ {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("a%02d.zip", i)))
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(f)
		w, err := zw.Create("data.txt")
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(strings.Repeat("x", 100+i)))
		total += 100 + i
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return total
}

// wrasse chat completes the benchmark task through code mode against a
// scripted model: one run_go call, then the answer; the conversation shows
// the program and its twenty calls nested under it.
func TestChatCodeModeSumsArchives(t *testing.T) {
	ws := t.TempDir()
	// The archives lie in a granted folder, where relative paths start.
	files := t.TempDir()
	if code, _, errOut := chatCLI(t, ws, "", nil, "config", "set", "folders", files); code != 0 {
		t.Fatalf("config set folders: exit %d\n%s", code, errOut)
	}
	want := writeArchives(t, files)
	args, _ := json.Marshal(map[string]string{"program": sumArchives})
	m := newModel(t, toolCall("run_go", string(args)), text(fmt.Sprintf("The 20 archives hold %d bytes.", want)))
	env := map[string]string{"OPENAI_API_KEY": "sk-test"}
	code, out, errOut := chatCLI(t, ws, "", env, "chat", "--send-key", "--base-url", m.BaseURL(), "--model", "m1", "sum the sizes of the 20 archives in archives/")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if !strings.Contains(out, fmt.Sprintf("%d bytes", want)) {
		t.Errorf("stdout %q", out)
	}
	if n := strings.Count(errOut, "  → archive_list"); n != 20 {
		t.Errorf("stderr shows %d nested archive_list calls; want 20:\n%s", n, errOut)
	}
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests; want 2", len(reqs))
	}
	msgs := reqs[1].Messages
	last := msgs[len(msgs)-1]
	if wantOut := fmt.Sprintf("20 archives, %d bytes uncompressed", want); !strings.Contains(last.Content, wantOut) {
		t.Errorf("the model read %q; want %q", last.Content, wantOut)
	}
	if strings.Contains(string(reqs[1].Body), "data.txt") {
		t.Error("an inner call's result reached the model")
	}
	code, out, errOut = chatCLI(t, ws, "", env, "conversations", "show", "c1")
	if code != 0 {
		t.Fatalf("show: exit %d\n%s", code, errOut)
	}
	for _, w := range []string{"tool call run_go: ```go\npackage main", "    [4] tool call archive_list: {\"path\":\"archives/a01.zip\"}", "    [5] tool result archive_list: " + filepath.Join(files, "archives", "a01.zip") + ": zip archive"} {
		if !strings.Contains(out, w) {
			t.Errorf("conversations show lacks %q:\n%s", w, out)
		}
	}
}
