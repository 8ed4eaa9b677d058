package skillmd

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// The YAML alias budget. Aliases let a few hundred bytes stand for
// billions of nodes ("billion laughs"): a node tree is small, but every
// walk that follows aliases (conversion to JSON, decoding into values)
// pays for the expanded size. A frontmatter whose aliases expand past
// these bounds is refused before anything walks it. Real SKILL.md files
// are a few hundred nodes.
const (
	// MaxExpandedNodes bounds the nodes of the frontmatter with every
	// alias expanded.
	MaxExpandedNodes = 100_000
	// MaxExpandedBytes bounds its scalar text with every alias expanded.
	MaxExpandedBytes = 4 << 20
)

// ErrAliasBudget means the frontmatter's aliases expand past the budget.
var ErrAliasBudget = errors.New("YAML aliases expand too far")

// checkAliases measures root as if every alias were expanded, without
// expanding anything: each node's expanded size is computed once and
// reused wherever an alias points at it. A node that contains an alias to
// itself is refused too.
func checkAliases(root *yaml.Node) error {
	type size struct{ nodes, bytes int64 }
	memo := map[*yaml.Node]size{}
	active := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node, depth int) (size, error)
	walk = func(n *yaml.Node, depth int) (size, error) {
		if n == nil {
			return size{}, nil
		}
		if depth > 10_000 {
			return size{}, fmt.Errorf("%w: nested more than 10000 levels deep", ErrAliasBudget)
		}
		if s, ok := memo[n]; ok {
			return s, nil
		}
		if active[n] {
			return size{}, fmt.Errorf("%w: an anchor contains an alias to itself", ErrAliasBudget)
		}
		active[n] = true
		defer delete(active, n)
		s := size{nodes: 1, bytes: int64(len(n.Value))}
		kids := n.Content
		if n.Kind == yaml.AliasNode {
			kids = []*yaml.Node{n.Alias}
		}
		for _, k := range kids {
			ks, err := walk(k, depth+1)
			if err != nil {
				return size{}, err
			}
			s.nodes += ks.nodes
			s.bytes += ks.bytes
			if s.nodes > MaxExpandedNodes || s.bytes > MaxExpandedBytes {
				return size{}, fmt.Errorf("%w: they stand for more than %d nodes or %d bytes of text; write the values out or use fewer aliases",
					ErrAliasBudget, MaxExpandedNodes, MaxExpandedBytes)
			}
		}
		memo[n] = s
		return s, nil
	}
	_, err := walk(root, 0)
	return err
}
