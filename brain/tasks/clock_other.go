//go:build !linux

package tasks

import "time"

func systemTimer(t time.Time) Timer { return newGoTimer(t) }
