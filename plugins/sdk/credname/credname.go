// Package credname is the one list of file names that hold secrets wherever
// they are, shared by the gate (brain/gate), which asks before a call names
// one, and the plugin SDK (plugins/sdk), which refuses to follow a link to
// one. It imports only the standard library so that both can use it.
package credname

import (
	"path"
	"slices"
	"strings"
)

// Patterns are the names, as path.Match globs in lower case: .env files
// (also direnv's .envrc and prod.env-style names, and editor backups of
// them), private SSH keys, .netrc, .git-credentials and .pgpass. Names
// match in any case: on macOS and Windows .ENV is .env.
func Patterns() []string {
	return []string{".env", ".env.*", ".env-*", ".env_*", ".env~", ".envrc", ".envrc.*", "*.env", "*.env~",
		"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk",
		".netrc", ".git-credentials", ".pgpass"}
}

// Templates are .env files meant to be shared, holding no secrets, in
// lower case; they match Patterns but are not credentials.
func Templates() []string {
	return []string{".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.schema",
		".env-example", ".env_example", ".env-sample", ".env_sample", ".env-template", ".env_template"}
}

// Is reports whether a file name (not a path) holds keys or passwords:
// it matches a pattern, in any case, and is not a template.
func Is(name string) bool {
	n := strings.ToLower(name)
	if slices.Contains(Templates(), n) {
		return false
	}
	for _, p := range Patterns() {
		if ok, _ := path.Match(p, n); ok {
			return true
		}
	}
	return false
}
