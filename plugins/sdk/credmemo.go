package sdk

import (
	"hash/maphash"
	"os"
	"sync"
)

// stamp is a file's identity with what changes when it gains or loses a
// name, is renamed, or (for a folder) an entry is added or removed.
type stamp struct {
	id           fileID
	links        uint64
	ctime, mtime int64
}

// credentialMemo remembers, across the operations of one Env, the files
// with other names already found to be no credential file, so that a
// pnpm node_modules (every file a hard link into its store) costs one
// walk of the credential folders, not one per file read (147 ms against
// 20,000 entries in ~/.mozilla).
//
// What is remembered is a file's stamp: a new name (a hard link from a
// credential folder to it) or a rename changes its number of names or its
// change time, and so its stamp. What would not change it, a folder that
// holds another name of the file moved into a credential folder, changes
// that folder's entries: the credential folders' own stamps are part of
// what is remembered (roots), and any change to them forgets everything.
// A folder moved deeper inside one is not seen; making one takes a
// program outside every sandbox, which can read the file anyway.
type credentialMemo struct {
	seed  maphash.Seed
	mu    sync.Mutex
	roots uint64
	clear map[stamp]struct{}
}

// memoOnce makes an Env's memo the first time it is needed: Env is made
// by the host as a plain struct.
type memoOnce struct {
	once sync.Once
	memo *credentialMemo
}

func (o *memoOnce) get() *credentialMemo {
	o.once.Do(func() { o.memo = &credentialMemo{seed: maphash.MakeSeed()} })
	return o.memo
}

// maxMemo bounds the files remembered; past it the memo starts again.
const maxMemo = 1 << 16

// cleared reports whether info was found to be no credential file while
// the credential folders were as roots says.
func (m *credentialMemo) cleared(info os.FileInfo, roots uint64) bool {
	s, ok := changeStamp(info)
	if !ok {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.roots != roots {
		return false
	}
	_, ok = m.clear[s]
	return ok
}

// remember records that info is no credential file while the folders are
// as roots says.
func (m *credentialMemo) remember(info os.FileInfo, roots uint64) {
	s, ok := changeStamp(info)
	if !ok {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.roots != roots || len(m.clear) >= maxMemo {
		m.roots, m.clear = roots, map[stamp]struct{}{}
	}
	m.clear[s] = struct{}{}
}

// rootsStamp sums up the stamps of the credential paths themselves (a
// missing one counts too).
func (m *credentialMemo) rootsStamp(paths []string) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	for _, p := range paths {
		h.WriteString(p)
		info, err := os.Stat(p)
		if err != nil {
			h.WriteByte(0)
			continue
		}
		s, ok := changeStamp(info)
		if !ok {
			h.WriteByte(1)
			continue
		}
		maphash.WriteComparable(&h, s)
	}
	return h.Sum64()
}
