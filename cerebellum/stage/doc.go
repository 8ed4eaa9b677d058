// Package stage is the untrusted-input front of capability install: it turns
// a dropped item (a lone SKILL.md, a folder, or a .zip/.skill archive) into a
// clean staging folder, or a precise error, before the installer validates
// the capability and renames the folder into place. It never parses SKILL.md
// (skillmd does) and never touches the registry.
//
// # Two phases
//
// Stage first plans: it reads every name, type and declared size (the zip
// central directory, or an Lstat walk of the folder) and rejects the input
// before anything is written. Only then it creates one folder inside the
// staging area and copies through an [os.Root], metering every byte again
// while copying or inflating (declared sizes are never trusted). On any error
// the folder is removed, even on panic, so the staging area is left as it
// was.
//
// # Rules
//
//   - Kind: os.Stat of the input. A folder; *.zip or *.skill (any case),
//     which must start with a zip signature; *.md (any case), non-empty and
//     at most MaxSkillMD bytes, staged as SKILL.md even without frontmatter
//     (the parser reports that). Anything else is ErrUnsupportedInput, with a
//     hint when its bytes are an archive.
//   - Root: exactly one file named skill.md (any case) anywhere; it must sit
//     at the top, or inside the single top-level folder with nothing beside
//     that folder but junk. It is staged as SKILL.md; the root's contents
//     become the staging folder's top.
//   - Paths: "..", absolute, UNC and drive-letter paths escape
//     (ErrUnsafePath). In zips a backslash is a separator (Windows
//     PowerShell 5 writes "dir\file"); on disk it is refused as a name
//     character. Names must be valid UTF-8 with no NUL, control or bidi
//     characters, and portable to Windows (no <>:"|?*, no trailing dot or
//     space, no CON/NUL/COM1…); "." and empty components are dropped.
//   - Collisions: the same path twice, a file and a folder of one path, or
//     two paths equal under strings.ToLower are ErrDuplicate, since they
//     would merge on macOS and Windows. Unicode normalisation (NFC/NFD) is
//     not compared.
//   - Types: symbolic links (zip mode bits or Lstat; never followed), hard
//     links (a folder file with more than one name: it may be a file outside
//     the folder), devices, FIFOs, sockets and unknown Unix types are refused.
//   - Archives inside the input (a scripts/components.tar.gz, a template
//     .docx) are ordinary files: never extracted, and counted against the
//     limits like any other file. Only the dropped input itself is
//     unpacked.
//   - Limits (see Limits): files, total bytes, bytes per file, SKILL.md
//     bytes, path depth, and the zip ratio per entry once past 1 MiB
//     expanded and per archive once past 8 MiB (small repetitive files
//     compress far better than 100:1 and are harmless). Entries sharing compressed data are a zip
//     bomb. The zip central directory is read under a byte budget, so an
//     archive of millions of tiny entries is refused before it is loaded.
//     Encrypted entries and methods other than store and deflate are
//     ErrUnsupportedEntry.
//   - Junk is skipped without checks and listed in Staged.Ignored:
//     __MACOSX, .DS_Store, AppleDouble ._* files, Thumbs.db, desktop.ini,
//     .git, .hg, .svn, node_modules and __pycache__ (rebuilt caches,
//     platform-specific and often full of links).
//   - Modes: folders are written 0755; files 0755 when the source's owner
//     could execute them (zip mode bits or Lstat), else 0644, so bundled
//     scripts run as their authors shipped them. Setuid, setgid, sticky and
//     group or other write never survive; nothing runs at install.
//
// # Collections
//
// An input holding several skills (the anthropics/skills repository as one
// archive or folder) is refused by Stage with ErrMultipleSkillMD. Survey
// lists its skills (every folder with a SKILL.md, at any depth) with a
// Problem for each one that cannot be staged, failing as a whole only on
// escaping paths, corruption or collectionScale times the limits;
// StageRoot then stages one of them exactly as Stage stages a capability.
// Files outside every skill folder are never staged.
//
// Errors are *Error values wrapping one sentinel of errors.go, naming the
// input and the offending entry in one line fit for a code block.
package stage
