package stage

// Limits bound what Stage accepts. A zero or negative field means the
// default from DefaultLimits, so Limits{} is safe.
type Limits struct {
	MaxFiles      int     // files staged (folders and junk not counted)
	MaxTotalBytes int64   // bytes staged, counted while copying or inflating
	MaxFileBytes  int64   // bytes in any one file
	MaxRatio      float64 // uncompressed/compressed, per zip entry and for the whole archive
	MaxSkillMD    int64   // bytes in SKILL.md
	MaxDepth      int     // components in any path inside the input
}

// DefaultLimits returns the limits Wrasse installs with: 5,000 files,
// 50 MiB in total, 10 MiB per file, ratio 100, SKILL.md 1 MiB, depth 16.
func DefaultLimits() Limits {
	return Limits{
		MaxFiles:      5000,
		MaxTotalBytes: 50 << 20,
		MaxFileBytes:  10 << 20,
		MaxRatio:      100,
		MaxSkillMD:    1 << 20,
		MaxDepth:      16,
	}
}

// MaxRatio applies once an entry expands past ratioFloor, and the whole
// archive past archiveRatioFloor: small, very repetitive files (blank
// templates, padded JSON) compress far better than 100:1 and are harmless.
// The floors bound the work a bomb can cause before it is caught.
const (
	ratioFloor        = 1 << 20
	archiveRatioFloor = 8 << 20
)

// Entry-count and central-directory budgets for zips: archive/zip reads every
// central directory record into memory before we can look at one, so the
// bytes it may read there are capped first. Finder doubles the entry count
// (__MACOSX/._ files and folder entries), hence the factor.
const (
	entriesPerFile     = 4
	entrySlack         = 64
	dirBytesPerEntry   = 512
	dirBytesEOCDSearch = 128 << 10
)

// Name limits, chosen so a staged tree can be written on Windows, macOS and
// Linux alike.
const (
	maxComponentBytes = 255
	maxPathBytes      = 1024
)

// WithDefaults is l with DefaultLimits for every limit left at zero.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	if l.MaxFiles <= 0 {
		l.MaxFiles = d.MaxFiles
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = d.MaxTotalBytes
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = d.MaxFileBytes
	}
	if l.MaxRatio <= 0 {
		l.MaxRatio = d.MaxRatio
	}
	if l.MaxSkillMD <= 0 {
		l.MaxSkillMD = d.MaxSkillMD
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	return l
}

func (l Limits) maxEntries() int { return l.MaxFiles*entriesPerFile + entrySlack }
