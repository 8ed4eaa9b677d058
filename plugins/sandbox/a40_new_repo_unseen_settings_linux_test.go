//go:build linux

package sandbox_test

import (
	"path/filepath"
	"testing"
)

// a40: what the end's check (DisarmNewRepos) reads of a repository a
// command made, and what it does not. Each case is a repository the
// command made in the grant and left for the person, who then runs an
// ordinary git command in it, unconfined.
func TestA40NewRepositoryRunsForPerson(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct {
		name string
		// make runs in the grant; %M is the marker's path, %S a script
		// that makes it.
		make string
		// person is the person's git command, run in dir (relative to
		// the grant).
		dir    string
		person []string
	}{{
		// ranHooks lists the hooks folder; one the watcher cannot read
		// (mode 0111: it has dropped its capabilities) holds "nothing".
		// git needs no listing to run hooks/pre-commit.
		name:   "a hooks folder the watcher cannot list",
		make:   a40g + " init -q inner && cp %S inner/.git/hooks/pre-commit && chmod 111 inner/.git/hooks",
		dir:    "inner",
		person: []string{"commit", "-q", "--allow-empty", "-m", "mine"},
	}, {
		// A clone's remote stays ("a clone's own settings"), but an
		// ext:: remote runs a command, once protocol.ext.allow lets it;
		// neither is in runsProgram or namesFiles. The person's git
		// fetch (git pull) in the clone runs it.
		name: "a clone whose remote is an ext:: command",
		make: a40g + " init -q src && " + a40g + " -C src commit -q --allow-empty -m x && " + a40g + " clone -q src copy && rm -rf src && " +
			a40g + " -C copy config remote.origin.url 'ext::sh %S' && " + a40g + " -C copy config protocol.ext.allow always",
		dir:    "copy",
		person: []string{"fetch", "-q"},
	}, {
		// url.<base>.insteadOf rewrites the clone's plain remote to
		// an ext:: one: remote.origin.url looks as the clone left it.
		name: "url.insteadOf rewrites a clone's remote to ext::",
		make: a40g + " init -q src && " + a40g + " -C src commit -q --allow-empty -m x && " + a40g + " clone -q src copy && " +
			a40g + " -C copy config url.'ext::sh %S #'.insteadOf \"$PWD/src\" && " + a40g + " -C copy config protocol.allow always",
		dir:    "copy",
		person: []string{"pull", "-q"},
	}, {
		// Signing with an ssh key and no user.signingKey runs
		// gpg.ssh.defaultKeyCommand: runsProgram has gpg.*.program only.
		name: "gpg.ssh.defaultKeyCommand",
		make: a40g + " init -q inner && " + a40g + " -C inner config gpg.format ssh && " + a40g + " -C inner config commit.gpgSign true && " +
			a40g + " -C inner config gpg.ssh.defaultKeyCommand %S",
		dir:    "inner",
		person: []string{"commit", "-q", "--allow-empty", "-m", "mine"},
	}, {
		// submodule.NAME.update = !command, honoured from the
		// repository's config (not from .gitmodules): git submodule
		// update runs it.
		name: "submodule.NAME.update = !command",
		make: a40g + " init -q lib && " + a40g + " -C lib commit -q --allow-empty -m x && " + a40g + " init -q inner && " +
			a40g + " -c protocol.file.allow=always -C inner submodule add -q ../lib lib && " + a40g + " -C inner commit -q -m sub && " +
			a40g + " -C inner submodule deinit -q lib && " + a40g + " -C inner config submodule.lib.update '!sh %S'",
		dir:    "inner",
		person: []string{"submodule", "update", "--init"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			marker, script := plantScript(t, f)
			line := a40Replace(c.make, marker, script)
			out := a40Run(t, f, line)
			got := gitOK(filepath.Join(f.granted, c.dir), c.person...)
			if a40Ran(marker) {
				t.Errorf("%s: the person's git %v ran what the command left, unconfined: command: %s\nperson's git: %s", c.name, c.person, out, got)
			}
		})
	}
}
