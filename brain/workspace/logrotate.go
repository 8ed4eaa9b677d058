package workspace

import "gopkg.in/natefinch/lumberjack.v2"

// Log rotation: the log is cut at LogMaxMB and LogBackups old files are
// kept, so a chatty or hostile plugin cannot fill the disk (at most
// (LogBackups+1)×LogMaxMB). Old files stay uncompressed: lumberjack
// compresses in a goroutine that Close does not wait for, so a window
// closed just after a rotation left a half-written .gz beside the log.
const (
	LogMaxMB   = 10
	LogBackups = 3
)

// rotatingLog is the writer behind the workspace log.
func rotatingLog(path string) *lumberjack.Logger {
	return &lumberjack.Logger{Filename: path, MaxSize: LogMaxMB, MaxBackups: LogBackups, Compress: false}
}
