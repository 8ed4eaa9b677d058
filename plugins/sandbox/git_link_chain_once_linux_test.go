//go:build linux

package sandbox_test

// Found by the a30 attack round on the a29 fixes, and fixed: the resolver
// keeps a too-many-links failure with how many links were left when it
// was met (resolver.tooDeep), so the chain is followed once, not once per
// path through it.
//
// Attack (a30, the resolver keeps no too-many-links failure): a29's
// resolver resolves "each path once a plan", but a failure met past
// maxLinkDepth (255 links one within another) is never kept, and makes
// every failure kept before it stale (keep: r.gen++). A command makes, in
// a repository x of its grant, a chain of 257 links L/l0 -> ... -> l256,
// each target padded with 800 "d/../" pairs (4 KiB, 1,600 steps each), and
// x/.git/worktrees with 4,096 links to L/l0. Each entry's targets
// (NAME itself, pinned as an ancestor; NAME/commondir; NAME/config.worktree)
// resolve NAME again from scratch: 255 readlinks and 400,000 steps, about
// 55 ms, three times per entry. The next command's launcher plans for
// about 10 minutes (256 entries: 39 s in mountPlan on the test machine);
// four such listings (the 32,768-target bound allows 16,384 entries) make
// it 40. The kernel gives up after 40 links, so nothing git reaches lies
// behind such a path. filepath.EvalSymlinks before the resolver cost the
// same in lstats; the resolver was meant to bound it.
//
// Should: the launcher's start stays bounded whatever links a command
// leaves.
// Did: the next command had not started after 20 seconds (now: 0.2 s).

import (
	"strings"
	"testing"
	"time"
)

func TestA30LinkChainResolvedAgainForEveryTarget(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	prep := `set -e; mkdir -p x/.git/worktrees x/L/d && cd x && echo 'ref: refs/heads/main' > .git/HEAD &&
		pad=$(printf 'd/../%.0s' $(seq 1 800)) && for i in $(seq 0 255); do ln -s "${pad}l$((i+1))" L/l$i; done && ln -s . L/l256 &&
		for i in $(seq 0 4095); do ln -s ../../L/l0 .git/worktrees/e$i; done && echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	startLaunch(t, p, f.granted).startsWithin(t, 20*time.Second, "4,096 worktrees entries linking to a chain of 257 links, whose too-many-links failure the resolver never keeps, are each resolved again from scratch")
}
