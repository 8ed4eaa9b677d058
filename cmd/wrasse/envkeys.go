package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

// API keys in Wrasse's environment (OPENAI_API_KEY, ANTHROPIC_API_KEY) are
// read once at start and leave the environment at once: every program
// Wrasse starts would otherwise inherit them, and the kernel shows a
// process's environment to others in /proc/PID/environ (to root, and a
// command Wrasse runs as root is root, sandbox or not). os.Unsetenv
// changes only Go's copy: /proc shows the block the process started with.
// So a Wrasse that finds keys there starts itself again without them,
// handing the values over a pipe (envkeys_unix.go); elsewhere they are
// unset.

// keysFDEnv names the file descriptor over which a Wrasse that started
// itself again hands the keys to the new process.
const keysFDEnv = "WRASSE_KEYS_FD"

// maxKeysHandover bounds what crosses the pipe: it must fit the pipe's
// buffer, since it is written before the new process starts to read.
const maxKeysHandover = 32 << 10

// keyVariables are the environment variables Wrasse reads keys from.
func keyVariables() []string { return []string{assistant.EnvOpenAI, assistant.EnvAnthropic} }

// envKeys are keys taken out of the environment; getenv reads them as if
// they were still there.
type envKeys map[string]string

func (k envKeys) getenv(name string) string {
	if v, ok := k[name]; ok {
		return v
	}
	return os.Getenv(name)
}

func isKeyVariable(name string) bool { return slices.Contains(keyVariables(), name) }

// takenKeys returns the key variables set in env (empty ones too: they
// leave the environment like the others).
func takenKeys(env []string) envKeys {
	keys := envKeys{}
	for _, kv := range env {
		if name, value, _ := strings.Cut(kv, "="); isKeyVariable(name) {
			keys[name] = value
		}
	}
	return keys
}

// secret reports whether any key has a value (an empty one is no secret,
// and not worth starting again for).
func (k envKeys) secret() bool {
	for _, v := range k {
		if v != "" {
			return true
		}
	}
	return false
}

// withoutKeys is env without the key variables.
func withoutKeys(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !isKeyVariable(name) {
			out = append(out, kv)
		}
	}
	return out
}

// encodeKeys writes keys as NAME=VALUE records, each ended by a zero byte
// (a value cannot hold one: it came from the environment).
func encodeKeys(keys envKeys) ([]byte, error) {
	var b bytes.Buffer
	for _, k := range keyVariables() {
		if v, ok := keys[k]; ok {
			b.WriteString(k + "=" + v)
			b.WriteByte(0)
		}
	}
	if b.Len() > maxKeysHandover {
		return nil, fmt.Errorf("the API keys in the environment are longer than %d bytes together", maxKeysHandover)
	}
	return b.Bytes(), nil
}

// decodeKeys reads what encodeKeys wrote; only the key variables count.
func decodeKeys(r io.Reader) (envKeys, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxKeysHandover+1))
	if err != nil {
		return nil, fmt.Errorf("read the API keys handed over: %w", err)
	}
	if len(data) > maxKeysHandover {
		return nil, errors.New("read the API keys handed over: too long")
	}
	keys := envKeys{}
	for _, rec := range strings.Split(string(data), "\x00") {
		if rec == "" {
			continue
		}
		name, value, ok := strings.Cut(rec, "=")
		if !ok {
			return nil, errors.New("read the API keys handed over: a record has no =")
		}
		if isKeyVariable(name) {
			keys[name] = value
		}
	}
	return keys, nil
}

// hiddenCommand reports whether args start one of the processes Wrasse
// starts for itself (plugin host, sandbox launcher, program runner): their
// environment is Wrasse's to set, and a sandboxed command must get its
// own exactly.
func hiddenCommand(args []string) bool {
	if len(args) < 2 {
		return false
	}
	switch args[1] {
	case pluginHostCommand, sandboxCommand, codeRunCommand:
		return true
	}
	return false
}
