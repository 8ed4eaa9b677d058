// Package std holds the interpreter symbols of the standard packages a
// plugin may import, and nothing else: the base, permission-gated and
// built-in-only packages of plugins/policy.go (a test there checks that
// the two lists agree).
//
// Wrasse used to hand interpreters yaegi's whole stdlib.Symbols. Its init
// builds a reflect.Value for every exported symbol of about 150 packages,
// which links all of them (go/types, image/*, database/sql, debug/*,
// testing, ...) into the binary and touches their code and type data at
// start: megabytes of resident memory for packages no plugin may import.
//
// The files are yaegi's own (v0.16.1, Go 1.22 symbol sets) copied by
// gen.go, so the plugin dialect and every symbol stay exactly as before;
// restricted.go, maptypes.go and wrapper-composed.go come along because
// the extracted files and the interpreter rely on them (os.Exit and
// log.Fatal that panic instead of exiting; the interfaces fmt,
// encoding/json and io look for in interpreted values). Each file's
// init is renamed to a loader (load.go calls them all), so Symbols builds
// the maps on its first call, once, rather than every process in init;
// they are read-only afterwards.
//
// The go:generate line is the list; regenerate with
// `go generate ./plugins/hostsyms/std` after changing it.
package std

//go:generate go run gen.go archive/tar archive/zip bufio bytes cmp compress/bzip2 compress/flate compress/gzip compress/lzw compress/zlib container/heap container/list container/ring context crypto/hmac crypto/md5 crypto/rand crypto/sha1 crypto/sha256 crypto/sha512 crypto/subtle crypto/tls crypto/x509 crypto/x509/pkix encoding encoding/ascii85 encoding/base32 encoding/base64 encoding/binary encoding/csv encoding/hex encoding/json encoding/pem encoding/xml errors fmt hash hash/adler32 hash/crc32 hash/crc64 hash/fnv hash/maphash html html/template io io/fs io/ioutil log maps math math/big math/bits math/cmplx math/rand math/rand/v2 mime mime/multipart mime/quotedprintable net net/http net/http/cookiejar net/http/httptrace net/http/httputil net/mail net/netip net/smtp net/textproto net/url os path path/filepath reflect regexp regexp/syntax runtime slices sort strconv strings sync sync/atomic text/scanner text/tabwriter text/template text/template/parse time unicode unicode/utf16 unicode/utf8
