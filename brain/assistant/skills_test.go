package assistant

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// skillsCollection is the Agent Skills fixture shared with the engine's
// tests: skills/{pdf,spec-full,web-builder,broken} and a README.
var skillsCollection = filepath.Join("..", "..", "cerebellum", "testdata", "collection")

// zipSkills archives dir under prefix, keeping file modes.
func zipSkills(t *testing.T, dir, prefix string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, _ := d.Info()
		fh, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fh.Name, fh.Method = prefix+filepath.ToSlash(rel), zip.Deflate
		w, err := zw.CreateHeader(fh)
		if err != nil {
			return err
		}
		data, _ := os.ReadFile(p)
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	zw.Close()
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(prefix, "/")+".zip")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// approveAll is the test's user, saying yes to every call.
var approveAll = gate.ApproverFunc(func(context.Context, gate.Request) (gate.Approval, error) { return gate.ApproveOnce, nil })

// toolResults are the results of the conversation's calls, by tool.
func toolResults(t *testing.T, a *App, id store.ID) map[string][]string {
	t.Helper()
	evs, err := a.db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, e := range evs {
		if e.Type == store.EventToolResult {
			out[e.ToolName] = append(out[e.ToolName], e.Text)
		}
	}
	return out
}

// TestAgentSkillsEndToEnd installs the fixture skills as a collection, a
// zip, a folder and a bare SKILL.md, then runs chat turns against a fake
// model that reads a skill and runs its script with the shell tool from
// the skill's base directory.
func TestAgentSkillsEndToEnd(t *testing.T) {
	ctx := context.Background()
	forms := map[string]func(a *App) error{
		"collection": func(a *App) error {
			items, err := a.InstallCollection(ctx, zipSkills(t, skillsCollection, "skills-main/"), nil, false)
			for _, it := range items {
				if it.Err != nil && it.Name != "broken" {
					t.Errorf("%s: %v", it.Name, it.Err)
				}
			}
			return err
		},
		"zip+folder+skill.md": func(a *App) error {
			skills := filepath.Join(skillsCollection, "skills")
			for _, in := range []string{zipSkills(t, filepath.Join(skills, "pdf"), "pdf/"), filepath.Join(skills, "web-builder"), filepath.Join(skills, "spec-full", "SKILL.md")} {
				if _, err := a.Install(ctx, in, false); err != nil {
					return err
				}
			}
			return nil
		},
	}
	for form, install := range forms {
		t.Run(form, func(t *testing.T) {
			a := openTest(t)
			if err := install(a); err != nil {
				t.Fatal(err)
			}
			var listed []string
			for _, c := range a.reg.List() {
				listed = append(listed, c.Name)
			}
			for _, name := range []string{"pdf", "spec-full", "web-builder"} {
				if !slices.Contains(listed, name) {
					t.Fatalf("%s not listed: %q", name, listed)
				}
			}
			if slices.Contains(listed, "Broken_Skill") || slices.Contains(listed, "broken") {
				t.Fatalf("the broken skill was installed: %q", listed)
			}
			pdf, _ := a.reg.Get("pdf")

			m := providertest.NewModel(t, providertest.OpenAI)
			useModel(t, a, m, "fake")
			cwd, _ := json.Marshal(pdf.Dir)
			m.Reply(providertest.ToolCall("skill_read_source", `{"capability":"pdf"}`))
			m.Reply(providertest.ToolCall("skill_read_source", `{"capability":"pdf","path":"FORMS.md"}`))
			m.Reply(providertest.ToolCall("shell_exec", `{"command":"./scripts/check_fields.sh","cwd":`+string(cwd)+`}`))
			web, _ := a.reg.Get("web-builder")
			webCwd, _ := json.Marshal(web.Dir)
			m.Reply(providertest.ToolCall("shell_exec", `{"command":"./scripts/init.sh","cwd":`+string(webCwd)+`}`))
			m.Reply(providertest.Text("The form has three fields."))
			var asked []string
			approver := gate.ApproverFunc(func(_ context.Context, r gate.Request) (gate.Approval, error) {
				asked = append(asked, r.Tool)
				return gate.ApproveOnce, nil
			})
			id, err := a.Turn(ctx, 0, "fill in my PDF form", TurnOptions{Approver: approver})
			if err != nil {
				t.Fatal(err)
			}
			res := toolResults(t, a, id)
			if r := res["skill_read_source"]; len(r) != 2 || !strings.Contains(r[0], "Base directory: "+pdf.Dir) || !strings.Contains(r[1], "# Filling forms") {
				t.Fatalf("skill_read_source results: %q", r)
			}
			sh := res["shell_exec"]
			if len(sh) != 2 || !strings.Contains(sh[0], "exit code: 0") || !strings.Contains(sh[0], "fields: name, date, signature") {
				t.Fatalf("shell_exec results: %q", sh)
			}
			// The nested archive arrived as a file the skill's script reads.
			if !strings.Contains(sh[1], "exit code: 0") || !strings.Contains(sh[1], "web-builder ready") || !strings.Contains(sh[1], "components/button.html") {
				t.Fatalf("web-builder's init.sh: %q", sh[1])
			}
			// The script ran after the user approved it (the folder being
			// read-only to it is the sandbox's part, tested with Landlock in
			// the shell plugin and plugins/sandbox).
			if !slices.Equal(asked, []string{"shell_exec", "shell_exec"}) {
				t.Errorf("approvals asked for %q", asked)
			}

			// allowed-tools: reading spec-full loads calc, so the next
			// request offers calc_eval without a search.
			m.Reply(providertest.ToolCall("skill_read_source", `{"capability":"spec-full"}`))
			m.Reply(providertest.ToolCall("calc_eval", `{"expression":"6*7"}`))
			m.Reply(providertest.Text("42"))
			before := len(m.Requests())
			id2, err := a.Turn(ctx, 0, "show me 6*7 step by step", TurnOptions{Approver: approveAll})
			if err != nil {
				t.Fatal(err)
			}
			reqs := m.Requests()[before:]
			if len(reqs) != 3 || !slices.Contains(reqs[1].ToolNames(), "calc_eval") {
				t.Fatalf("after reading spec-full the request offered %q", reqs[min(1, len(reqs)-1)].ToolNames())
			}
			if r := toolResults(t, a, id2)["calc_eval"]; len(r) != 1 || !strings.Contains(r[0], "42") {
				t.Fatalf("calc_eval: %q", r)
			}
		})
	}
}
