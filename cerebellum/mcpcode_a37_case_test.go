//go:build darwin || windows

package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a37: on a case-insensitive file system (macOS's APFS by default,
// Windows), npm opening ".npmrc" reads a planted ".NPMRC"; isRunFile
// compares names exactly (and ".env" by an exact prefix), so the planted
// file is not hashed. Not run on Linux, where the names differ.
func TestA37ApprovalMissesRunFileInOtherCase(t *testing.T) {
	a35Run(t, []a35Case{{
		name:  "npm start: .NPMRC planted (node-options=--require ./notes.txt)",
		files: map[string]string{"proj/package.json": `{"name":"proj","scripts":{"start":"node server.js"}}`, "proj/server.js": "// v1\n", "proj/notes.txt": "meeting notes\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "npm", Args: []string{"start"}, Cwd: filepath.Join(g, "proj")}
		},
		change: map[string]string{"proj/.NPMRC": "node-options=--require ./notes.txt\n"},
	}})
}
