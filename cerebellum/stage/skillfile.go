package stage

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

func stageSkillFile(input, base string, fileSize int64, parent string, lim Limits) (*Staged, error) {
	p := newPlanner(KindSkillFile, base, lim, selection{})
	switch {
	case fileSize == 0:
		return nil, p.failInput(ErrEmpty, "the file has no content; a SKILL.md needs frontmatter with a name and a description")
	case fileSize > lim.MaxSkillMD:
		pr := lim.fileTooLarge("SKILL.md")
		return nil, p.failInput(pr.err, "%s", pr.detail)
	}
	f, err := os.Open(input)
	if err != nil {
		return nil, fmt.Errorf("stage: %w", err)
	}
	defer f.Close()
	head, _, err := readUpTo(f, sniffLen)
	if err != nil {
		return nil, fmt.Errorf("stage: %w", err)
	}
	if d := describeFormat(head); d != "" {
		fix := "re-pack the capability folder as a .zip"
		if strings.HasSuffix(d, "zip archive") {
			fix = "rename it to end in .zip"
		}
		return nil, &Error{Input: base, Err: ErrUnsupportedInput, Detail: fmt.Sprintf("%s, not Markdown; %s", d, fix)}
	}
	st := &Staged{Kind: KindSkillFile}
	s := &stager{kind: KindSkillFile, input: base, lim: lim}
	return withStaging(parent, st, s, func(s *stager) error {
		// No entry name: problems belong to the input as a whole.
		return s.write("", "SKILL.md", io.MultiReader(bytes.NewReader(head), f), -1, false)
	})
}
