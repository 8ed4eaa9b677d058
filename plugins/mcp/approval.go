package mcp

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// checkApproved refuses to start a server whose files (its program, the
// scripts its command line names and the code their projects hold:
// cerebellum.LaunchFiles) are not the ones the person approved: a script
// rewritten after the approval, or a module planted beside it, is code
// nobody approved.
//
// A probe (Test) of a server whose block the person has not approved
// runs only after its caller showed the command and the person agreed;
// one of an approved block holds to the approval like any start.
func (l *Loader) checkApproved(cfg config, probe bool) error {
	if !cfg.check || cfg.block.URL != "" {
		return nil
	}
	launch, approved, hashed := cerebellum.SplitApproval(cfg.approved)
	if probe && launch != cerebellum.LaunchKey(&cfg.block) {
		return nil
	}
	files := cerebellum.LaunchFiles(&cfg.block, cfg.dir)
	for _, f := range files {
		if why, ok := strings.CutPrefix(f, cerebellum.RefusedPrefix); ok {
			return hint.With(fmt.Errorf("%w: MCP server %s does not start: %s", ErrNotApproved, cfg.name, why),
				hint.Hint{Action: "Look at it and enable it again", Command: []string{"caps", "enable", cfg.name}, Page: hint.PageCapability, Target: cfg.name})
		}
		if root, ok := strings.CutPrefix(f, cerebellum.UncheckedPrefix); ok {
			// Code nobody can check is code nobody approved.
			return hint.With(fmt.Errorf("%w: MCP server %s does not start: the folder its code lies in, %s, holds more files than Wrasse checks before a start, so a change to the code it loads could not be told from what you approved; put the server in a folder of its own (or install it as a package, npx or uvx) and enable it again", ErrNotApproved, cfg.name, root),
				hint.Hint{Action: "Look at it and enable it again", Command: []string{"caps", "enable", cfg.name}, Page: hint.PageCapability, Target: cfg.name})
		}
	}
	if hashed && approved == cerebellum.FilesKey(files, l.sums.sum) {
		return nil
	}
	what := "the files its command runs"
	// The programs of its PATH folders are many and say little one by
	// one: they are counted, not listed.
	var shown []string
	onPath := 0
	for _, f := range files {
		if strings.HasPrefix(f, cerebellum.PathEntryPrefix) {
			onPath++
			continue
		}
		shown = append(shown, f)
	}
	if onPath > 0 {
		shown = append(shown, fmt.Sprintf("the %d programs in the folders of its PATH", onPath))
	}
	if len(shown) > 0 {
		what += " (" + strings.Join(shown, ", ") + ")"
	}
	why := what + " changed since you approved it"
	if !hashed {
		why = "it was approved before Wrasse checked " + what
	}
	return hint.With(fmt.Errorf("%w: MCP server %s does not start: %s; enabling it again shows what it runs and approves it", ErrNotApproved, cfg.name, why),
		hint.Hint{Action: "Look at it and enable it again", Command: []string{"caps", "enable", cfg.name}, Page: hint.PageCapability, Target: cfg.name})
}

// fileSums hashes the files servers run, remembering each hash with the
// file's identity (device, inode, size, modification and change times),
// so a server's program (a 100 MB runtime) is read once, not at every
// start. The change time moves with any write and no process can set it
// back; but it moves in steps (a clock tick), so, as git does with its
// index, a file changed less than racyWindow before it was hashed is not
// remembered: a write in the same tick would keep its identity.
type fileSums struct {
	// now is the clock (nil: time.Now).
	now func() time.Time

	mu sync.Mutex
	m  map[string]fileSum
}

// racyWindow is how long after its last change a file's hash is not
// remembered: far more than any clock tick of a file system.
const racyWindow = 2 * time.Second

type fileSum struct {
	id  fileID
	sum string
}

type fileID struct {
	dev, ino           uint64
	size, mtime, ctime int64
}

func (f *fileSums) sum(path string) (string, error) {
	id, ok := identify(path)
	if ok {
		f.mu.Lock()
		got, hit := f.m[path]
		f.mu.Unlock()
		if hit && got.id == id {
			return got.sum, nil
		}
	}
	now := time.Now
	if f.now != nil {
		now = f.now
	}
	settled := now().Add(-racyWindow).UnixNano()
	sum, err := cerebellum.SumFile(path)
	if err != nil {
		return "", err
	}
	if after, still := identify(path); ok && still && after == id && id.ctime < settled && id.mtime < settled {
		f.mu.Lock()
		if f.m == nil {
			f.m = map[string]fileSum{}
		}
		f.m[path] = fileSum{id: id, sum: sum}
		f.mu.Unlock()
	}
	return sum, nil
}
