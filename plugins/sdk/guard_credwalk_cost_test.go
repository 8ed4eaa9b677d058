package sdk

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Every file operation on a file with other names reads the credential
// folders whole (up to maxCredentialEntries), once per operation: pnpm's
// node_modules (hard links into its store), a `git clone --local`, or a
// link a sandboxed command makes with `ln`, against the person's browser
// and snap folders (~/.mozilla, ~/snap, ~/.config/google-chrome: tens of
// thousands of entries, which web pages grow through the caches kept
// there). This measures one read of such a file against folders of
// 20,000 entries; a file with one name costs nothing extra.
func BenchmarkReadFileWithOtherNames(b *testing.B) {
	fx := newFixture(b)
	profile := filepath.Join(fx.home, ".mozilla", "firefox", "p.default", "cache2", "entries")
	for d := range 200 {
		dir := filepath.Join(profile, fmt.Sprintf("%03d", d))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		for i := range 100 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d", i)), nil, 0o600); err != nil {
				b.Fatal(err)
			}
		}
	}
	fx.env.Credentials = []string{filepath.Join(fx.home, ".mozilla")}
	if err := os.Link(filepath.Join(fx.home, "other", "plain.txt"), filepath.Join(fx.home, "notes", "x.txt")); err != nil {
		b.Skip("hard links unsupported:", err)
	}
	for _, tc := range []struct{ name, arg string }{{"one name", "notes/todo.txt"}, {"two names", "notes/x.txt"}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := readArg(fx.env, tc.arg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
