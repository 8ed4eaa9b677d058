package bench

import "context"

const sectionCache = "prompt cache"

// cacheSection is filled in by the work on issue 16.
func (r *runner) cacheSection(ctx context.Context) []Row { return nil }
