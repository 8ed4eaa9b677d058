package stage

import (
	"bytes"
	"path"
	"strings"
)

// sniffLen is how much of a file's head is kept to recognise archives: the
// tar signature sits at offset 257.
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

// archiveExt reports whether a file name has an archive extension.
func archiveExt(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".zip", ".skill", ".jar", ".war", ".ear",
		".tar", ".gz", ".tgz", ".bz2", ".tbz", ".tbz2", ".xz", ".txz",
		".zst", ".tzst", ".lz4", ".lzma", ".7z", ".rar", ".cab":
		return true
	}
	return false
}

// zipDocument reports file types that are zip containers by design and are
// ordinary assets of a capability (Office and OpenDocument templates, EPUB):
// zip magic in these is not a nested archive.
func zipDocument(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".docx", ".docm", ".dotx", ".xlsx", ".xlsm", ".xltx", ".pptx", ".pptm", ".potx",
		".odt", ".ott", ".ods", ".odp", ".odg", ".epub", ".vsdx":
		return true
	}
	return false
}

const unpackHint = "archives are not installed from inside a capability; unpack it into the folder or remove it"

// nestedByName rejects a file whose extension says archive.
func nestedByName(clean string) *problem {
	if archiveExt(clean) {
		return newProblem(ErrNestedArchive, "the file is an archive (%s); %s", path.Ext(clean), unpackHint)
	}
	return nil
}

// nestedByContent rejects a file whose content is an archive whatever its
// name says.
func nestedByContent(clean string, head []byte) *problem {
	f := archiveFormat(head)
	if f == "" || (f == "zip" && zipDocument(clean)) {
		return nil
	}
	return newProblem(ErrNestedArchive, "the file's content is a %s archive despite its name; %s", f, unpackHint)
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
