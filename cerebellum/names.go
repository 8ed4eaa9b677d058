package cerebellum

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

func (r *Registry) notFound(name string) error {
	close := r.Closest(name, 3)
	if len(close) == 0 {
		return fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	return fmt.Errorf("%w: %q (did you mean %s?)", ErrNotFound, name, strings.Join(close, ", "))
}

// Closest returns up to n capability names nearest to name (hint.Closest).
func (r *Registry) Closest(name string, n int) []string {
	caps := r.Snapshot().caps
	names := make([]string, 0, len(caps))
	for _, c := range caps {
		names = append(names, c.Name)
	}
	return hint.Closest(name, names, n)
}
