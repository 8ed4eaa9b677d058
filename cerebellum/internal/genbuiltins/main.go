// Command genbuiltins writes the built-in capabilities as parsed now
// (cerebellum.EncodeBuiltins) to a data file that brain/cerebellum embeds,
// so a start decodes them instead of parsing every built-in SKILL.md.
// It runs from go generate in brain/cerebellum; TestParsedBuiltins there
// fails when the file is stale.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"

	builtin "github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// filesOnly hides the tree's current parsed form: the output must depend
// only on the files and the parser.
type filesOnly struct{ fs.FS }

func main() {
	out := flag.String("o", "parsed.jsonl", "the file to write")
	flag.Parse()
	data, err := cerebellum.EncodeBuiltins(filesOnly{builtin.FS()})
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genbuiltins:", err)
		os.Exit(1)
	}
}
