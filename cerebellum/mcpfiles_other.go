//go:build !unix

package cerebellum

// changeable is true: without a cheap check of the account's rights every
// file counts by its content.
func changeable(string) bool { return true }
