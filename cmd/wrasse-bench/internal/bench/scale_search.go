package bench

import "context"

// scaleSearch is filled in by the work on issue 14.
func (r *runner) scaleSearch(ctx context.Context) []Row { return nil }
