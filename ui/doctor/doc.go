// Package doctor is what the window shows when the workspace's storage
// gets in the way: the page that opens instead of the chat when the
// database is damaged or from a newer Wrasse (Page: salvage, restore a
// backup, start afresh), and the banners over the chat for a config.json
// with parts that cannot be read and for a full disk (Notices).
//
// The page works without an assistant.App (the database would not open);
// cmd/wrasse builds it from an assistant.Doctor and swaps in the shell
// once the database works again.
package doctor
