// Package sandboxtest holds what tests of Wrasse's boundaries share: running
// a test again as an ordinary account when the tests run as root (CI does),
// since root passes the file permissions those boundaries rest on.
package sandboxtest
