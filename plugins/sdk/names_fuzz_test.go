package sdk

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Names come from archives and models: whatever splitName accepts stays
// beneath the folder, component by component.
func FuzzSplitName(f *testing.F) {
	for _, s := range []string{"a/b", "./a//b/", "..", "a/../b", "/abs", "", ".", "a\x00b", `a\b`, "C:x", "a/./.../b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		comps, err := splitName(name)
		if err != nil {
			return
		}
		for _, c := range comps {
			if c == "" || c == "." || c == ".." || strings.ContainsAny(c, "/\x00") {
				t.Fatalf("splitName(%q) gave component %q", name, c)
			}
		}
		if strings.HasPrefix(name, "/") || slices.Contains(strings.Split(name, "/"), "..") {
			t.Fatalf("splitName(%q) accepted it", name)
		}
		want := path.Clean(name)
		if want == "." {
			want = ""
		}
		if got := strings.Join(comps, "/"); got != want {
			t.Fatalf("splitName(%q) = %q, want %q", name, got, want)
		}
	})
}

// beneath picks the granted folder a path lies in: a match must rebuild
// the path, and a path outside the folder never matches.
func FuzzBeneath(f *testing.F) {
	for _, s := range [][2]string{{"/home/u", "/home/u/a"}, {"/home/u", "/home/uv"}, {"/", "/x"}, {"/a/b", "/a"}, {"/a", "/a"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, base, abs string) {
		if !filepath.IsAbs(base) || !filepath.IsAbs(abs) {
			return
		}
		base, abs = filepath.Clean(base), filepath.Clean(abs)
		comps, ok := beneath(base, abs)
		if !ok {
			if samePath(base, abs) || strings.HasPrefix(abs, strings.TrimSuffix(base, string(filepath.Separator))+string(filepath.Separator)) {
				t.Fatalf("beneath(%q, %q) missed", base, abs)
			}
			return
		}
		if got := filepath.Join(append([]string{base}, comps...)...); !samePath(got, abs) {
			t.Fatalf("beneath(%q, %q) = %q, rebuilds %q", base, abs, comps, got)
		}
		for _, c := range comps {
			if c == "" || c == "." || c == ".." || strings.ContainsRune(c, filepath.Separator) {
				t.Fatalf("beneath(%q, %q) gave %q", base, abs, c)
			}
		}
	})
}
