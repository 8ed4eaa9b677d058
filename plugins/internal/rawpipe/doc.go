// Package rawpipe makes pipes whose descriptors the Go runtime's poller
// has not seen, for the plugin host and code mode: os.Pipe registers both
// ends with the poller, and the registration of an end handed to a child
// process outlives this process's copy of it (it belongs to the open pipe),
// so every message would also wake a poller thread here. Callers decide
// per end whether to make it non-blocking before os.NewFile.
package rawpipe
