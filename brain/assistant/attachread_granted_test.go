package assistant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file attached from a granted folder is one the tools may read anyway.
// Once attached, fs_read of its path in that conversation was answered
// only by the attachment's record, which refuses the file as "changed or
// replaced since it was attached" after any edit: the model's own
// fs_write, the person's editor. The grant let fs_read read it; the
// attachment took that away for the rest of the conversation. A refused
// attachment read now goes to the plugin, whose folder rules decide (a
// file outside the folders is refused there as before, with the
// attachment's reason).
func TestAttachedFileInAGrantedFolderStaysReadableAfterAnEdit(t *testing.T) {
	a, m, home := attackHome(t)
	doc := write(t, filepath.Join(home, "projects", "plan.md"), "first plan")
	conv, res := callTurn(t, a, m, 0, []string{doc}, "fs_read", map[string]any{"path": doc})
	if res.IsError || !strings.Contains(res.Text, "first plan") {
		t.Fatalf("fs_read of the attached file: %q", res.Text)
	}
	_, res = callTurn(t, a, m, conv, nil, "fs_write", map[string]any{"path": doc, "content": "second plan"})
	if res.IsError {
		t.Fatalf("fs_write in the granted folder: %q", res.Text)
	}
	_, res = callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": doc})
	if res.IsError || !strings.Contains(res.Text, "second plan") {
		t.Errorf("fs_read of the attached file in a granted folder after an edit: %q (error %v); want the file as it is now", res.Text, res.IsError)
	}

	// Outside the folders a new version still ends the allowance, saying why.
	out := write(t, filepath.Join(home, "Documents", "memo.txt"), "first memo")
	conv, _ = callTurn(t, a, m, conv, []string{out}, "fs_read", map[string]any{"path": out})
	// Saved as editors save: a new file renamed over (a new inode, so
	// no dependence on the ctime's granularity).
	if err := os.Rename(write(t, out+".new", "second memo"), out); err != nil {
		t.Fatal(err)
	}
	_, res = callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": out})
	if !res.IsError || strings.Contains(res.Text, "second memo") || !strings.Contains(res.Text, "attach it again") {
		t.Errorf("fs_read of an attached file outside the folders after an edit: %q (error %v); want the attachment's refusal", res.Text, res.IsError)
	}
}
