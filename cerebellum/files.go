package cerebellum

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// writeJSONFile writes v as JSON to path through a temporary file and a
// rename, so a reader (or a crash) never sees half a file. The engine's
// small state files (manifest cache, plugin verdicts, applied state) use it.
func writeJSONFile(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
