package store

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchSecrets are n secrets shaped like real keys (a prefix and 40
// random characters).
func benchSecrets(n int) map[string]string {
	rng := rand.New(rand.NewPCG(1, 2))
	const alpha = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	m := map[string]string{}
	for i := range n {
		b := []byte("sk-")
		for range 40 {
			b = append(b, alpha[rng.IntN(len(alpha))])
		}
		m[fmt.Sprintf("key_%02d", i)] = string(b)
	}
	return m
}

// benchText is 64 KiB of what tools return: prose, paths, JSON, a base64
// blob, with no secret in it.
func benchText() string {
	var b strings.Builder
	rng := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("the quick brown fox jumps over the lazy dog file /home/me/projects/wrasse/main.go returned 200 OK " +
		`{"name":"report.pdf","size":48213,"modified":"2026-11-30T10:00:00Z"} total 48 drwxr-xr-x 3 me me 4096 Nov 30 README.md ` +
		"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg== 7f3a9c0e5b21")
	for b.Len() < 64<<10 {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(12) == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// benchDump is 64 KiB of xxd's output for random bytes: hex and text
// columns, where a secret's hex forms start at every other byte.
func benchDump() string {
	rng := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	line := make([]byte, 16)
	for off := 0; b.Len() < 64<<10; off += 16 {
		for i := range line {
			line[i] = byte(rng.IntN(256))
		}
		fmt.Fprintf(&b, "%08x: ", off)
		for i := 0; i < 16; i += 2 {
			fmt.Fprintf(&b, "%02x%02x ", line[i], line[i+1])
		}
		b.WriteByte(' ')
		for _, c := range line {
			if c < ' ' || c > '~' {
				c = '.'
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// BenchmarkRedact is the redactor on 64 KiB of tool output without a
// secret in it (String), and streamed in 512-byte pieces (Hold), for 1, 3
// and 30 stored secrets; and on 64 KiB of a hex dump (Dump).
func BenchmarkRedact(b *testing.B) {
	text, dump := benchText(), benchDump()
	for _, n := range []int{1, 3, 30} {
		r := NewRedactor(benchSecrets(n))
		b.Run(fmt.Sprintf("String/secrets=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_ = r.String(text)
			}
		})
		b.Run(fmt.Sprintf("Dump/secrets=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(dump)))
			for b.Loop() {
				_ = r.String(dump)
			}
		})
		b.Run(fmt.Sprintf("Hold512/secrets=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				held := ""
				for i := 0; i < len(text); i += 512 {
					_, held = r.Hold(held + text[i:min(i+512, len(text))])
				}
			}
		})
	}
	b.Run("NewRedactor/secrets=30", func(b *testing.B) {
		s := benchSecrets(30)
		for b.Loop() {
			_ = NewRedactor(s)
		}
	})
}
