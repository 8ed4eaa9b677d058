package cerebellum_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// collectionDir is a collection shaped like anthropics/skills: skills under
// skills/ (one with executable scripts and a nested .tar.gz, one whose links
// differ in case from its files, one using every specification field, one
// broken) and a README beside them.
var collectionDir = filepath.Join("testdata", "collection")

// zipFolder archives dir under prefix (as GitHub's "Download ZIP" does),
// keeping each file's mode.
func zipFolder(t *testing.T, dir, prefix, out string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fh, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		fh.Name, fh.Method = prefix+filepath.ToSlash(rel), zip.Deflate
		w, err := zw.CreateHeader(fh)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// skillsEnv has the built-ins an Agent Skill's allowed-tools may name.
func skillsEnv(t *testing.T) *env {
	e := newEnv(t)
	e.addBuiltin("shell", "---\nname: shell\ndescription: Run shell commands.\ncore: true\ntools:\n  - name: shell_exec\n    description: Run a command.\n---\nx\n", true)
	e.addBuiltin("calc", skill("calc", "Evaluate arithmetic.", "calc_eval"), true)
	return e
}

func execBit(t *testing.T, path string) bool {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()&0o100 != 0
}

func TestCollectionInstall(t *testing.T) {
	zipped := filepath.Join(t.TempDir(), "skills-main.zip")
	zipFolder(t, collectionDir, "skills-main/", zipped)
	for _, input := range []string{collectionDir, zipped} {
		t.Run(filepath.Base(input), func(t *testing.T) {
			e := skillsEnv(t)
			r := e.open()
			ctx := context.Background()
			c, err := manage.New(r, manage.Options{}).Survey(input, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Names(); !slices.Equal(got, []string{"broken", "pdf", "spec-full", "web-builder"}) {
				t.Fatalf("survey found %q", got)
			}
			// Installing it as one capability is refused, naming the skills.
			_, err = manage.New(r, manage.Options{}).Install(ctx, input, manage.InstallOptions{})
			var ce *manage.CollectionError
			if !errors.As(err, &ce) || !errors.Is(err, cerebellum.ErrCollection) || !strings.Contains(err.Error(), "broken, pdf, spec-full, web-builder") {
				t.Fatalf("Install: %v", err)
			}
			if _, err := r.Get("pdf"); err == nil {
				t.Fatal("a refused collection installed something")
			}
			// An unknown name fails before anything is installed.
			if _, err := manage.New(r, manage.Options{}).InstallCollection(ctx, input, []string{"pdf", "nope"}, manage.InstallOptions{}); !errors.Is(err, cerebellum.ErrNotInCollection) || !strings.Contains(err.Error(), "not nope") {
				t.Fatalf("unknown name: %v", err)
			}
			if _, err := r.Get("pdf"); err == nil {
				t.Fatal("a refused --only installed something")
			}
			items, err := manage.New(r, manage.Options{}).InstallCollection(ctx, input, []string{"pdf"}, manage.InstallOptions{})
			if err != nil || len(items) != 1 || items[0].Err != nil {
				t.Fatalf("only pdf: %+v %v", items, err)
			}
			// All: the broken one fails alone; pdf is already there.
			items, err = manage.New(r, manage.Options{}).InstallCollection(ctx, input, nil, manage.InstallOptions{})
			if err != nil || len(items) != 4 {
				t.Fatalf("all: %+v %v", items, err)
			}
			outcome := map[string]error{}
			for _, it := range items {
				outcome[it.Name] = it.Err
			}
			if err := outcome["broken"]; !errors.Is(err, cerebellum.ErrInvalidCapability) || !strings.Contains(err.Error(), "Broken_Skill") {
				t.Errorf("broken: %v", outcome["broken"])
			}
			if err := outcome["pdf"]; !errors.Is(err, cerebellum.ErrExists) || !strings.HasPrefix(err.Error(), "install pdf: ") {
				t.Errorf("pdf again: %v", err)
			} else if h, ok := hint.Of(err); !ok || !slices.Equal(h.Command, []string{"caps", "install", input, "--only", "pdf", "--replace"}) {
				t.Errorf("pdf again: hint %+v", h)
			}
			for _, name := range []string{"spec-full", "web-builder"} {
				if outcome[name] != nil {
					t.Errorf("%s: %v", name, outcome[name])
				}
				if c := stateOf(t, r, name); c.State != cerebellum.StateOK || c.Kind != cerebellum.KindGuide {
					t.Errorf("%s: %s %s %s", name, c.State, c.Kind, c.Error)
				}
			}
			web := stateOf(t, r, "web-builder")
			if !slices.Contains(web.Files, "scripts/components.tar.gz") {
				t.Errorf("nested archive missing: %q", web.Files)
			}
			if _, err := os.Stat(filepath.Join(web.Dir, "scripts", "components")); err == nil {
				t.Error("the nested archive was extracted")
			}
			if runtime.GOOS != "windows" {
				if !execBit(t, filepath.Join(web.Dir, "scripts", "init.sh")) || execBit(t, filepath.Join(web.Dir, "SKILL.md")) {
					t.Error("execute bits not kept as shipped")
				}
			}
			if _, err := os.Stat(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "README.md")); err == nil {
				t.Error("a file outside every skill was installed")
			}
		})
	}
}

// TestSkillInstallForms installs each fixture skill as a zip, a folder and
// a bare SKILL.md.
func TestSkillInstallForms(t *testing.T) {
	for _, name := range []string{"pdf", "spec-full", "web-builder"} {
		src := filepath.Join(collectionDir, "skills", name)
		zipped := filepath.Join(t.TempDir(), name+".zip")
		zipFolder(t, src, name+"/", zipped)
		forms := map[string]string{"zip": zipped, "folder": src, "skill-md": filepath.Join(src, "SKILL.md")}
		for form, input := range forms {
			t.Run(name+"/"+form, func(t *testing.T) {
				e := skillsEnv(t)
				r := e.open()
				res, err := manage.New(r, manage.Options{}).Install(context.Background(), input, manage.InstallOptions{})
				if err != nil {
					t.Fatal(err)
				}
				c := stateOf(t, r, res.Name)
				if res.Name != name || c.State != cerebellum.StateOK {
					t.Fatalf("installed %q: %s %s", res.Name, c.State, c.Error)
				}
				if len(res.Report.Warnings) > 0 {
					t.Errorf("warnings: %q", res.Report.Warnings)
				}
				if form == "skill-md" {
					if !slices.Equal(c.Files, []string{"SKILL.md"}) {
						t.Errorf("files %q", c.Files)
					}
					return
				}
				want, _ := os.ReadDir(filepath.Join(src, "scripts"))
				for _, f := range want {
					if runtime.GOOS != "windows" && strings.HasSuffix(f.Name(), ".sh") && !execBit(t, filepath.Join(c.Dir, "scripts", f.Name())) {
						t.Errorf("%s lost its execute bit", f.Name())
					}
				}
			})
		}
	}
}

// TestInstallWarnsNameDiffersFromFolder: the spec wants them equal;
// installing names the folder after the skill and says so.
func TestInstallWarnsNameDiffersFromFolder(t *testing.T) {
	src := filepath.Join(t.TempDir(), "pdf-tools")
	copyDir(t, filepath.Join(collectionDir, "skills", "pdf"), src)
	r := skillsEnv(t).open()
	res, err := manage.New(r, manage.Options{}).Install(context.Background(), src, manage.InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Folder != "pdf" || len(res.Report.Warnings) != 1 || !strings.Contains(res.Report.Warnings[0], `"pdf" differs from its folder name "pdf-tools"`) {
		t.Fatalf("folder %q warnings %q", res.Folder, res.Report.Warnings)
	}
}

func TestReadSourceNamesAsWritten(t *testing.T) {
	e := skillsEnv(t)
	r := e.open()
	if _, err := manage.New(r, manage.Options{}).Install(context.Background(), filepath.Join(collectionDir, "skills", "pdf"), manage.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	pdf := stateOf(t, r, "pdf")
	body, err := r.ReadSource("pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "Base directory: "+pdf.Dir+"\n") || !strings.Contains(body, "scripts/check_fields.sh") {
		t.Errorf("body:\n%s", body)
	}
	cases := []struct {
		path, want string
	}{
		{"FORMS.md", "# Filling forms"},
		{"./REFERENCE.md", "# Reference"},
		{"Scripts/Check_Fields.sh", "fields: name"},
		{"forms.md", "# Filling forms"},
	}
	for _, tc := range cases {
		got, err := r.ReadSource("pdf", tc.path)
		if err != nil || !strings.Contains(got, tc.want) {
			t.Errorf("ReadSource(%q) = %q, %v", tc.path, got, err)
		}
	}
	for _, miss := range []string{"FORMS.txt", "scripts/missing.sh", "references/forms.md"} {
		_, err := r.ReadSource("pdf", miss)
		if err == nil {
			t.Fatalf("ReadSource(%q) succeeded", miss)
		}
		msg := err.Error()
		if strings.Contains(msg, e.ws) || strings.Contains(msg, string(filepath.Separator)+"brain") {
			t.Errorf("%q: the error leaks a path: %s", miss, msg)
		}
		if !strings.Contains(msg, "its files are: LICENSE.txt, forms.md, reference.md, scripts/check_fields.sh") {
			t.Errorf("%q: the error does not list the files: %s", miss, msg)
		}
	}
}

// TestAllowedToolsLoadWithTheSkill: reading a skill loads the capabilities
// its allowed-tools name, so they are callable without a search.
func TestAllowedToolsLoadWithTheSkill(t *testing.T) {
	e := skillsEnv(t)
	r := e.open()
	ctx := context.Background()
	if _, err := manage.New(r, manage.Options{}).Install(ctx, filepath.Join(collectionDir, "skills", "spec-full"), manage.InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	sess := r.NewSession("c", nil)
	if sess.IsLoaded("calc") {
		t.Fatal("calc loaded before the skill was read")
	}
	res, err := r.Call(ctx, sess, "skill_read_source", json.RawMessage(`{"capability":"spec-full"}`))
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	if !sess.IsLoaded("calc") {
		t.Error("calc_eval's capability was not loaded with the skill")
	}
	for _, want := range []string{"callable now: shell_exec, calc_eval.", "Not available here (do without them): Read."} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("result lacks %q:\n%s", want, res.Content)
		}
	}
	var offered []string
	for _, td := range r.Tools(sess) {
		offered = append(offered, td.Name)
	}
	if !slices.Contains(offered, "calc_eval") {
		t.Errorf("the next request offers %q", offered)
	}
	// Activating the guide says where it lives and loads the same.
	sess2 := r.NewSession("d", nil)
	res, _ = r.Call(ctx, sess2, "tool_activate", json.RawMessage(`{"capability":"spec-full"}`))
	if c := stateOf(t, r, "spec-full"); !strings.Contains(res.Content, "Its base directory is "+c.Dir) || !sess2.IsLoaded("calc") {
		t.Errorf("activate: %s", res.Content)
	}
}
