package bench

import "context"

// scalePlugin is filled in by the work on issue 14.
func (r *runner) scalePlugin(ctx context.Context) []Row { return nil }
