package bench

import "context"

const sectionCodeMode = "code mode"

// codeModeSection is filled in by the work on issue 15.
func (r *runner) codeModeSection(ctx context.Context) []Row { return nil }
