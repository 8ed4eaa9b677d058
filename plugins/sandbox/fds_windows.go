package sandbox

// CloseInherited does nothing on Windows: a child process gets only the
// handles marked inheritable, and Go marks none but the ones it passes.
func CloseInherited() error { return nil }
