package workspace

import "gopkg.in/natefinch/lumberjack.v2"

// Log rotation: the log is cut at LogMaxMB and LogBackups old files are
// kept (compressed), so a chatty or hostile plugin cannot fill the disk.
const (
	LogMaxMB   = 10
	LogBackups = 3
)

// rotatingLog is the writer behind the workspace log.
func rotatingLog(path string) *lumberjack.Logger {
	return &lumberjack.Logger{Filename: path, MaxSize: LogMaxMB, MaxBackups: LogBackups, Compress: true}
}
