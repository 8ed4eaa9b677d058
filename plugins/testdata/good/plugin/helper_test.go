package good

// A test file the host must skip: it would not even compile in the plugin.
import "testing"

func TestNothing(t *testing.T) { undefinedInTests() }
