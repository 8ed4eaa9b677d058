package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// npmCredentialKeys are the ~/.npmrc settings that are credentials, or
// name files holding them, or run a program to get them; compared in
// lower case, after any "//registry/path/:" scope.
var npmCredentialKeys = map[string]bool{"_authtoken": true, "_auth": true, "_password": true, "password": true,
	"username": true, "email": true, "certfile": true, "keyfile": true, "cert": true, "key": true, "tokenhelper": true,
	"otp": true}

// NpmrcWithoutCredentials writes into dir a copy of the person's
// ~/.npmrc without its credentials (npmCredentialKeys), so that npx in an
// MCP server finds the registries and proxies the person set, never
// their tokens. It returns the copy's path (for NPM_CONFIG_USERCONFIG),
// or "" when there is no ~/.npmrc.
func NpmrcWithoutCredentials(home, dir string) (string, error) {
	if home == "" {
		return "", nil
	}
	data, err := readRegular(filepath.Join(home, ".npmrc"), maxGitConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read npm's settings: %w", err)
	}
	out := filepath.Join(dir, "npmrc")
	if err := os.WriteFile(out, StripNpmCredentials(data), 0o600); err != nil {
		return "", fmt.Errorf("copy npm's settings without credentials: %w", err)
	}
	return out, nil
}

// StripNpmCredentials is an .npmrc without the lines that set a
// credential (npmCredentialKeys), in any registry's scope.
func StripNpmCredentials(data []byte) []byte {
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), len(data)+1)
	for sc.Scan() {
		line := sc.Text()
		if isNpmCredential(line) {
			continue
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// isNpmCredential reports whether an .npmrc line sets a credential.
// npm reads "key = value", the key optionally quoted, scoped to a
// registry ("//host/path/:_authToken") and an array ("key[]").
func isNpmCredential(line string) bool {
	key, _, ok := strings.Cut(line, "=")
	if !ok {
		return false
	}
	key = strings.Trim(strings.ToLower(strings.TrimSpace(key)), `"'`)
	if i := strings.LastIndex(key, ":"); i >= 0 {
		key = key[i+1:]
	}
	key = strings.TrimSuffix(strings.TrimSpace(key), "[]")
	return npmCredentialKeys[key]
}
