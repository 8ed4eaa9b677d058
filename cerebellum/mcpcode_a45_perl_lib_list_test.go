package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a45: optionValues takes perl's -Mlib=/path as the path after '=', but
// -Mmodule=a,b gives the module the list a, b (perlrun: "-MMODULE=arg1,
// arg2" is "use MODULE split(/,/, q{arg1,arg2})"), so -Mlib=/a,/b adds
// both folders to @INC (checked with perl 5: "HELPER RAN"). The word
// "/a,/b" names no folder: GRANTED/shared/lib, outside the project, is
// not hashed.
func TestA45PerlLibList(t *testing.T) {
	a35Run(t, []a35Case{{
		name: "perl server.pl, PERL5OPT=-Mlib=GRANTED/app/lib,GRANTED/shared/lib -MHelper",
		files: map[string]string{
			"app/server.pl":        "print \"ok\\n\";\n",
			"app/lib/Local.pm":     "package Local; 1;\n",
			"shared/lib/Helper.pm": "package Helper; 1;\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "perl", Args: []string{filepath.Join(g, "app", "server.pl")}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"PERL5OPT": "-Mlib=" + filepath.Join(g, "app", "lib") + "," + filepath.Join(g, "shared", "lib") + " -MHelper", "TOKEN": "t"}}
		},
		change: map[string]string{"shared/lib/Helper.pm": "package Helper; system('id'); 1;\n"},
	}})
}
