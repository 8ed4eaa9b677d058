//go:build linux

package mcp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// groupMembers lists the live (not zombie) processes of process group
// pgid, read from /proc: a killed child may stay a zombie until its new
// parent reaps it, and kill(-pgid, 0) still counts it.
func groupMembers(pgid int) []int {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			out = append(out, pid)
		}
	}
	return out
}
