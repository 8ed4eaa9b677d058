// Package fsclocktest is test support for code that tells files apart by their
// stat (the manifest cache): it waits until the file system's clock has
// moved past a file's change time, so that an edit made next is visible in
// the change time even where file times come from a coarse clock tick
// (Linux before 6.13: 1 to 10 ms). Only tests import it.
package fsclocktest
