package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Policy is what a confined process may touch. Paths are absolute; a path
// that does not exist is ignored.
type Policy struct {
	// ReadWrite are folders (or files) readable and writable with
	// everything beneath them.
	ReadWrite []string `json:"readWrite,omitempty"`
	// ReadOnly are readable, never writable, even beneath a ReadWrite folder.
	ReadOnly []string `json:"readOnly,omitempty"`
	// Exec are readable and executable (system folders for programs a
	// command runs).
	Exec []string `json:"exec,omitempty"`
	// NoAccess are neither readable nor writable, even beneath any of the
	// above.
	NoAccess []string `json:"noAccess,omitempty"`
	// Network allows TCP connect and bind. Without it they are refused
	// (Landlock ABI 4 and later).
	Network bool `json:"network"`
	// NoUnixSockets refuses creating unix sockets (a seccomp filter, where
	// the system has one), which Landlock cannot: connecting to a socket
	// file reaches the service behind it whatever the file rules say.
	NoUnixSockets bool `json:"noUnixSockets,omitempty"`
	// NoListen refuses listen(2) (the seccomp filter): with Network, the
	// process may connect but serves nobody.
	NoListen bool `json:"noListen,omitempty"`
	// NoMountNS runs the process without a mount namespace of its own, as
	// on a system that refuses one (the fallback, which tests force).
	NoMountNS bool `json:"noMountNS,omitempty"`
	// MountNS is set by Command (Linux) when the process starts in a user
	// and mount namespace of its own; the launcher then protects what only
	// mounts can (MountNamespace). MountNSRefused says why it could not,
	// for the gap the launcher reports.
	MountNS        bool   `json:"mountNS,omitempty"`
	MountNSRefused string `json:"mountNSRefused,omitempty"`
	// ParentMountNS names the mount namespace of the process that ran
	// Command: the launcher mounts nothing in that one.
	ParentMountNS string `json:"parentMountNS,omitempty"`
	// RepoMemory is the file where the launcher keeps the repositories it
	// found beneath the writable grants (Protected.RepoMemory), so that a
	// command cannot hide them from later commands by making the search
	// run out; "" for none.
	RepoMemory string `json:"repoMemory,omitempty"`
}

// Status says what a Restrict call made the kernel enforce.
type Status struct {
	// ABI is the kernel's Landlock ABI version (0: none).
	ABI int `json:"abi"`
	// Files is true when file access is confined to the policy.
	Files bool `json:"files"`
	// Network is true when TCP connect and bind are refused by the kernel
	// (false both when the policy allows the network and when the kernel
	// cannot refuse it; see NetworkAsked).
	Network bool `json:"network"`
	// NetworkAsked is true when the policy refused the network.
	NetworkAsked bool `json:"networkAsked"`
	// Scoped is true when the kernel keeps the process from signalling,
	// and from connecting over abstract Unix sockets to, any process
	// outside its sandbox (Landlock ABI 6 scopes; every policy asks for
	// them).
	Scoped bool `json:"scoped"`
	// MountNSAsked is true when the sandbox was meant to run in a mount
	// namespace of its own (commands and MCP servers started by Command on
	// Linux); MountNS when it does and every mount there was made. Else
	// MountNSWhy says what was refused.
	MountNSAsked bool   `json:"mountNSAsked,omitempty"`
	MountNS      bool   `json:"mountNS,omitempty"`
	MountNSWhy   string `json:"mountNSWhy,omitempty"`
}

// scopedABI is the first Landlock ABI with IPC scopes (Linux 6.12).
const scopedABI = 6

// Gaps lists, for a person, what the policy asked and the kernel does not
// enforce; empty when everything holds.
func (s Status) Gaps() []string {
	var gaps []string
	if !s.Files {
		gaps = append(gaps, "file access is not confined ("+noLandlock(s.ABI)+")")
	}
	if s.NetworkAsked && !s.Network {
		gaps = append(gaps, fmt.Sprintf("network access is not blocked (needs Landlock ABI 4, Linux 6.7 or later; this kernel has ABI %d)", s.ABI))
	}
	if s.Files && !s.Scoped {
		gaps = append(gaps, fmt.Sprintf("signals and abstract Unix sockets to processes outside the sandbox are not blocked (needs Landlock ABI 6, Linux 6.12 or later; this kernel has ABI %d)", s.ABI))
	}
	if s.MountNSAsked && !s.MountNS {
		gaps = append(gaps, "no mount namespace ("+s.MountNSWhy+"): the .git/config and .git/hooks of granted repositories stay writable, "+
			"/dev/shm is shared with the person's programs, and the modes and group of credential files can be changed")
	}
	return gaps
}

// String describes the status in one line.
func (s Status) String() string {
	if g := s.Gaps(); len(g) > 0 {
		return "sandbox incomplete: " + strings.Join(g, "; ")
	}
	what := "files"
	if s.NetworkAsked {
		what += " and TCP network"
	}
	if s.Scoped {
		what += "; no signals or abstract sockets beyond the sandbox"
	}
	if s.MountNS {
		what += "; a mount namespace of its own"
	}
	return fmt.Sprintf("sandboxed by Landlock ABI %d: %s", s.ABI, what)
}

func noLandlock(abi int) string {
	if abi > 0 {
		return "Landlock was not applied"
	}
	return "this system offers no Landlock; it needs Linux 5.13 or later with Landlock enabled"
}

// Encode and Decode carry a policy across a re-exec (Exec).
func (p Policy) Encode() (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("encode sandbox policy: %w", err)
	}
	return string(b), nil
}

// Decode reads a policy written by Encode.
func Decode(s string) (Policy, error) {
	var p Policy
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		return Policy{}, fmt.Errorf("%w: %v", ErrBadPolicy, err)
	}
	for _, list := range [][]string{p.ReadWrite, p.ReadOnly, p.Exec, p.NoAccess} {
		for _, x := range list {
			if !filepath.IsAbs(x) {
				return Policy{}, fmt.Errorf("%w: path %q is not absolute", ErrBadPolicy, x)
			}
		}
	}
	return p, nil
}

// Access is one class of rights on a path.
type Access int

const (
	// List lets a folder be listed, nothing more (a folder on the way to a
	// protected path).
	List Access = iota
	// Read reads files and lists folders.
	Read
	// ReadExec also executes files.
	ReadExec
	// ReadWrite reads, writes, creates, removes and executes.
	ReadWrite
)

// Rule grants Access on Path and, for a folder, everything beneath it.
type Rule struct {
	Path   string
	Access Access
	// Dir is true for a folder.
	Dir bool
}

// Rules turns a policy into Landlock-style rules: every granted path,
// carved around the protected ones (NoAccess everywhere; ReadOnly inside
// ReadWrite folders; Exec never writes, so a ReadOnly path may be Exec). Symbolic links inside a carved folder are
// skipped, since a rule on a link would grant its target.
func Rules(p Policy) []Rule {
	noAccess := cleanAll(p.NoAccess)
	readOnly := cleanAll(p.ReadOnly)
	exec := cleanAll(p.Exec)
	var out []Rule
	add := func(paths []string, acc Access, holes []string) {
		for _, root := range paths {
			out = append(out, carve(root, acc, holes)...)
		}
	}
	add(exec, ReadExec, noAccess)
	add(cleanAll(p.ReadWrite), ReadWrite, append(slices.Clone(noAccess), readOnly...))
	// A read-only path that is also Exec has its rule there already.
	isExec := map[string]bool{}
	for _, e := range exec {
		isExec[e] = true
	}
	add(slices.DeleteFunc(readOnly, func(r string) bool { return isExec[r] }), Read, noAccess)
	return out
}

// carve grants acc on root, except on holes and beneath them.
func carve(root string, acc Access, holes []string) []Rule {
	var inner []string
	for _, h := range holes {
		if h == root || within(h, root) {
			return nil
		}
		if within(root, h) {
			inner = append(inner, h)
		}
	}
	info, err := os.Stat(root)
	if err != nil {
		return nil
	}
	return carveIn(root, info.IsDir(), acc, inner)
}

// carveIn grants acc on root, whose holes all lie strictly beneath it
// (inner). The holes are sorted by the entry of root they lie in, so
// that a folder of many entries (a home folder) costs one pass over its
// entries and one over its holes.
func carveIn(root string, dir bool, acc Access, inner []string) []Rule {
	if len(inner) == 0 {
		return []Rule{{Path: root, Access: acc, Dir: dir}}
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil // fail closed: grant nothing here
	}
	byEntry := map[string][]string{}
	skip := len(root) + 1
	if root == string(filepath.Separator) {
		skip = 1
	}
	for _, h := range inner {
		name, _, _ := strings.Cut(h[skip:], string(filepath.Separator))
		byEntry[name] = append(byEntry[name], h)
	}
	out := []Rule{{Path: root, Access: List, Dir: true}}
	for _, e := range entries {
		if e.Type()&os.ModeSymlink != 0 {
			continue
		}
		p := filepath.Join(root, e.Name())
		holes := byEntry[e.Name()]
		if slices.Contains(holes, p) {
			continue
		}
		out = append(out, carveIn(p, e.IsDir(), acc, holes)...)
	}
	return out
}

// within reports whether p lies strictly beneath dir.
func within(dir, p string) bool {
	if dir == string(filepath.Separator) {
		return p != dir && strings.HasPrefix(p, dir)
	}
	return len(p) > len(dir) && p[len(dir)] == filepath.Separator && strings.HasPrefix(p, dir)
}

// cleanAll makes paths absolute and clean and resolves symbolic links, so
// that a protected path is recognised however it is spelled.
func cleanAll(in []string) []string {
	out := make([]string, 0, len(in))
	for _, p := range in {
		if strings.TrimSpace(p) == "" {
			continue
		}
		out = append(out, Clean(p))
	}
	return out
}

// Clean returns p absolute and clean, with symbolic links in its longest
// existing prefix resolved.
func Clean(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	p = filepath.Clean(p)
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// Expect is the Status Restrict would return here for a policy with the
// given Network, without confining anything: what the kernel can enforce
// on this system. A capability's page and `caps show` say it before any
// plugin process starts.
func Expect(network bool) Status {
	abi := ABI()
	return Status{ABI: abi, Files: abi > 0, Network: !network && abi >= 4, NetworkAsked: !network, Scoped: abi >= scopedABI}
}
