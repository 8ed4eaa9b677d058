package credname_test

import (
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sdk/credname"
)

func TestIs(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{".env", true}, {".ENV", true}, {".env.production", true}, {".env-local", true}, {".env_local", true},
		{".env~", true}, {".envrc", true}, {".envrc.private", true}, {"prod.env", true}, {"prod.env~", true},
		{"id_rsa", true}, {"ID_ED25519", true}, {"id_ecdsa_sk", true}, {".netrc", true},
		{".git-credentials", true}, {".pgpass", true},
		{".env.example", false}, {".ENV.Sample", false}, {".env_template", false}, {"id_rsa.pub", false},
		{"main.go", false}, {"environment", false}, {"", false},
	} {
		if got := credname.Is(c.name); got != c.want {
			t.Errorf("Is(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
