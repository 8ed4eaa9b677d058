package stage

import (
	"bytes"
)

// sniffLen is how much of an input's head is read to recognise an archive
// dropped under the wrong name: the tar signature sits at offset 257.
const sniffLen = 512

// archiveFormat names the archive or compression format whose magic bytes
// open head, or returns "".
func archiveFormat(head []byte) string {
	has := func(off int, magic string) bool {
		return len(head) >= off+len(magic) && string(head[off:off+len(magic)]) == magic
	}
	switch {
	case has(0, "PK\x03\x04"), has(0, "PK\x05\x06"), has(0, "PK\x07\x08"):
		return "zip"
	case has(0, "\x1f\x8b"):
		return "gzip"
	case has(0, "BZh") && len(head) >= 10 && head[3] >= '1' && head[3] <= '9' &&
		(bytes.Equal(head[4:10], []byte("\x31\x41\x59\x26\x53\x59")) || bytes.Equal(head[4:10], []byte("\x17\x72\x45\x38\x50\x90"))):
		return "bzip2"
	case has(0, "\xfd7zXZ\x00"):
		return "xz"
	case has(0, "7z\xbc\xaf\x27\x1c"):
		return "7z"
	case has(0, "Rar!\x1a\x07"):
		return "rar"
	case has(0, "\x28\xb5\x2f\xfd"):
		return "zstd"
	case has(0, "\x04\x22\x4d\x18"):
		return "lz4"
	case has(0, "MSCF\x00\x00\x00\x00"):
		return "cab"
	case has(257, "ustar"):
		return "tar"
	}
	return ""
}

// describeFormat is a hint for inputs of the wrong kind.
func describeFormat(head []byte) string {
	switch f := archiveFormat(head); f {
	case "":
		return ""
	case "gzip":
		return "it is a gzip file (a renamed .tar.gz?)"
	case "tar", "bzip2", "xz", "zstd", "lz4":
		return "it is a " + f + " file (a renamed tar archive?)"
	default:
		return "it is a " + f + " archive"
	}
}
