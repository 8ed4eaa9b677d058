package bench

import "errors"

// Errors callers may test with errors.Is; wrapped messages say what to fix.
var (
	// ErrNoData means the MetaTool data set was not found: pass --metatool
	// DIR or run from the repository root.
	ErrNoData = errors.New("search data set not found")
	// ErrNoRepo means the repository root (go.mod of the wrasse module) was
	// not found: run from inside the repository or pass --repo.
	ErrNoRepo = errors.New("repository root not found")
	// ErrNoQueries means a data set's queries file holds no query.
	ErrNoQueries = errors.New("the queries file has no queries")
	// ErrUsage is a bad command line.
	ErrUsage = errors.New("usage")
	// ErrChild means a measuring child process failed or printed nothing
	// usable.
	ErrChild = errors.New("child process failed")
	// ErrMissed means at least one figure missed its target (reported only
	// when asked to be strict).
	ErrMissed = errors.New("target missed")
)
