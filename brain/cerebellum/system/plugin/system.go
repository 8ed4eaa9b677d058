// Package system is the plugin of the built-in system capability: facts
// about the computer (system_info), free disk space (disk_space) and
// opening a file or web address with the user's default app (system_open).
//
// The source is interpreted by yaegi at run time: no goroutines, no
// package-level mutable state, no syscall; stdlib and the SDK only. Disk
// space comes from `df` (PowerShell on Windows) rather than statfs.
package system

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// launchTimeout bounds a call to the opener (xdg-open, open, start), which
// normally hands the file to the app and returns at once.
const launchTimeout = 15 * time.Second

// desktopVars are the variables an opener such as xdg-open needs.
const desktopVars = "HOME USER DISPLAY WAYLAND_DISPLAY XDG_RUNTIME_DIR DBUS_SESSION_BUS_ADDRESS " +
	"XDG_CURRENT_DESKTOP XDG_SESSION_TYPE XDG_DATA_DIRS XDG_CONFIG_DIRS USERPROFILE APPDATA LOCALAPPDATA"

// runner runs a program and returns its standard output.
//
// It takes a slice, not ...string: yaegi fails to compile calls of a
// variadic func value with several arguments.
type runner func(ctx context.Context, name string, args []string) ([]byte, error)

// sys is the plugin's state, built in Init. Tests replace now, goos and run.
type sys struct {
	env  *sdk.Env
	now  func() time.Time
	goos string
	run  runner
}

// Init registers system_info, disk_space and system_open.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	s := &sys{env: env, now: time.Now, goos: runtime.GOOS, run: runProgram}
	p := sdk.NewPlugin()
	p.Handle("system_info", s.info)
	p.Handle("disk_space", s.disk)
	p.Handle("system_open", s.open)
	return p, nil
}

// runProgram runs name with a small fixed environment (C locale, so output
// formats are stable) and returns stdout.
func runProgram(ctx context.Context, name string, args []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LC_ALL=C", "LANG=C"}
	if runtime.GOOS == "windows" {
		cmd.Env = []string{`SystemRoot=C:\Windows`, `PATH=C:\Windows\system32;C:\Windows;C:\Windows\System32\WindowsPowerShell\v1.0`}
	}
	// The opener needs the desktop session to reach it; these name the
	// session, not secrets. Nothing else of the process environment passes.
	for _, k := range strings.Fields(desktopVars) {
		if v := os.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	err := cmd.Run()
	if err != nil && errb.Len() > 0 {
		return out.Bytes(), fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), err
}

// --- system_info ---

func (s *sys) info(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	now := s.now()
	zone, offset := now.Zone()
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	locale := strings.TrimSpace(s.env.Settings["locale"])
	if locale == "" {
		locale = "unknown (not set in Settings)"
	}
	var b strings.Builder
	line := func(k, v string) {
		if v != "" {
			b.WriteString(k + ": " + v + "\n")
		}
	}
	line("os", s.goos+" "+s.osVersion(ctx))
	line("arch", runtime.GOARCH)
	line("hostname", host)
	line("cpus", strconv.Itoa(runtime.NumCPU()))
	line("memory", s.memory(ctx))
	line("time", now.Format("2006-01-02 15:04:05 Monday"))
	line("time zone", fmt.Sprintf("%s (UTC%s)", zoneName(now.Location().String(), zone), formatOffset(offset)))
	line("iso time", now.Format(time.RFC3339))
	line("locale", locale)
	line("workspace", s.env.Workspace)
	if len(s.env.Roots) > 0 {
		line("granted folders", strings.Join(s.env.Roots, ", "))
	}
	return sdk.Text(b.String()), nil
}

func zoneName(loc, abbr string) string {
	if loc == "" || loc == "Local" || loc == abbr {
		return abbr
	}
	return loc + ", " + abbr
}

func formatOffset(secs int) string {
	sign := "+"
	if secs < 0 {
		sign = "-"
		secs = -secs
	}
	return fmt.Sprintf("%s%02d:%02d", sign, secs/3600, secs%3600/60)
}

// osVersion names the OS release, best effort.
func (s *sys) osVersion(ctx context.Context) string {
	switch s.goos {
	case "linux":
		data, err := os.ReadFile("/etc/os-release")
		if err != nil {
			return ""
		}
		return osRelease(string(data))
	case "darwin":
		out, err := s.run(ctx, "sw_vers", []string{"-productVersion"})
		if err != nil {
			return ""
		}
		return "macOS " + strings.TrimSpace(string(out))
	case "windows":
		out, err := s.run(ctx, "cmd", []string{"/C", "ver"})
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	return ""
}

// osRelease picks PRETTY_NAME (or NAME VERSION) out of /etc/os-release.
func osRelease(data string) string {
	vals := map[string]string{}
	for _, l := range strings.Split(data, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		if ok {
			vals[k] = strings.Trim(v, `"'`)
		}
	}
	if v := vals["PRETTY_NAME"]; v != "" {
		return "(" + v + ")"
	}
	if v := strings.TrimSpace(vals["NAME"] + " " + vals["VERSION"]); v != "" {
		return "(" + v + ")"
	}
	return ""
}

// memory reports total and available memory, best effort.
func (s *sys) memory(ctx context.Context) string {
	switch s.goos {
	case "linux":
		data, err := os.ReadFile("/proc/meminfo")
		if err != nil {
			return ""
		}
		return memInfo(string(data))
	case "darwin":
		out, err := s.run(ctx, "sysctl", []string{"-n", "hw.memsize"})
		if err != nil {
			return ""
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			return ""
		}
		return humanBytes(n) + " total"
	}
	return ""
}

// memInfo summarises /proc/meminfo.
func memInfo(data string) string {
	kb := map[string]int64{}
	for _, l := range strings.Split(data, "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				kb[strings.TrimSuffix(f[0], ":")] = n
			}
		}
	}
	total, ok := kb["MemTotal"]
	if !ok {
		return ""
	}
	if avail, ok := kb["MemAvailable"]; ok {
		return humanBytes(total*1024) + " total, " + humanBytes(avail*1024) + " available"
	}
	return humanBytes(total*1024) + " total"
}

func humanBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	f := float64(n)
	i := 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 {
		return strconv.FormatInt(n, 10) + " B"
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + units[i]
}

// --- disk_space ---

// diskUsage is one file system's numbers in bytes.
type diskUsage struct {
	Filesystem string
	Mount      string
	Total      int64
	Used       int64
	Free       int64
}

func (s *sys) disk(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	arg := req.String("path", "")
	if arg == "" {
		arg = s.env.Workspace
	}
	// The real path (no links) of what was checked goes to df, which
	// cannot take a handle.
	path, _, err := s.env.RealPathArg(arg)
	if err != nil {
		return nil, pathError(arg, err, "pass an existing file or folder")
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var u diskUsage
	if s.goos == "windows" {
		vol := filepath.VolumeName(path)
		if len(vol) != 2 || vol[1] != ':' {
			return nil, sdk.Errorf("%s is not on a drive letter; disk_space supports local drives such as C:", arg)
		}
		script := "$d = Get-PSDrive -Name '" + vol[:1] + "'; Write-Output \"$($d.Used) $($d.Free)\""
		out, err := s.run(ctx, "powershell", []string{"-NoProfile", "-NonInteractive", "-Command", script})
		if err != nil {
			return nil, sdk.Errorf("could not read the disk space of %s: %v", vol, err)
		}
		if u, err = parsePSDrive(string(out)); err != nil {
			return nil, sdk.Errorf("could not read the disk space of %s: %v", vol, err)
		}
		u.Filesystem, u.Mount = vol, vol+`\`
	} else {
		out, err := s.run(ctx, "df", []string{"-Pk", path})
		if err != nil && len(out) == 0 {
			return nil, sdk.Errorf("could not run df for %s: %v", arg, err)
		}
		if u, err = parseDF(string(out)); err != nil {
			return nil, sdk.Errorf("could not read the disk space of %s: %v", arg, err)
		}
	}
	pct := 0.0
	if u.Total > 0 {
		pct = float64(u.Used) * 100 / float64(u.Total)
	}
	return sdk.Textf("%s\nfile system: %s mounted on %s\ntotal: %s\nused: %s (%.0f%%)\nfree: %s\n",
		path, u.Filesystem, u.Mount, humanBytes(u.Total), humanBytes(u.Used), pct, humanBytes(u.Free)), nil
}

// parseDF reads `df -Pk` output. Names with spaces are handled by finding
// the capacity column (n%) preceded by three numbers.
func parseDF(out string) (diskUsage, error) {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 {
		return diskUsage{}, fmt.Errorf("unexpected df output %q", out)
	}
	f := strings.Fields(strings.Join(lines[1:], " "))
	for i := 3; i < len(f); i++ {
		if !strings.HasSuffix(f[i], "%") {
			continue
		}
		total, e1 := strconv.ParseInt(f[i-3], 10, 64)
		used, e2 := strconv.ParseInt(f[i-2], 10, 64)
		free, e3 := strconv.ParseInt(f[i-1], 10, 64)
		if e1 != nil || e2 != nil || e3 != nil || i-3 < 1 {
			continue
		}
		return diskUsage{
			Filesystem: strings.Join(f[:i-3], " "),
			Mount:      strings.Join(f[i+1:], " "),
			Total:      total * 1024, Used: used * 1024, Free: free * 1024,
		}, nil
	}
	return diskUsage{}, fmt.Errorf("unexpected df output %q", out)
}

// parsePSDrive reads "used free" byte counts printed by PowerShell.
func parsePSDrive(out string) (diskUsage, error) {
	f := strings.Fields(out)
	if len(f) != 2 {
		return diskUsage{}, fmt.Errorf("unexpected PowerShell output %q", out)
	}
	used, e1 := strconv.ParseInt(f[0], 10, 64)
	free, e2 := strconv.ParseInt(f[1], 10, 64)
	if e1 != nil || e2 != nil {
		return diskUsage{}, fmt.Errorf("unexpected PowerShell output %q", out)
	}
	return diskUsage{Total: used + free, Used: used, Free: free}, nil
}

// pathError describes why the path arg cannot be used: the SDK's refusals
// (outside the folders, protected) as written for the model, a missing
// path with what to do instead.
func pathError(arg string, err error, hint string) error {
	var te *sdk.ToolError
	switch {
	case errors.As(err, &te):
		return err
	case errors.Is(err, fs.ErrNotExist):
		return sdk.Errorf("%s does not exist; %s", arg, hint)
	}
	return sdk.Errorf("%s cannot be used: %v", arg, err)
}

// --- system_open ---

// openCommand is the program that opens target with the default app.
func openCommand(goos, target string) (string, []string) {
	switch goos {
	case "darwin":
		return "open", []string{target}
	case "windows":
		// rundll32 avoids cmd.exe's quoting rules for & and ^ in URLs.
		return "rundll32", []string{"url.dll,FileProtocolHandler", target}
	}
	return "xdg-open", []string{target}
}

func (s *sys) open(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	target := strings.TrimSpace(req.String("target", ""))
	if target == "" {
		return nil, sdk.Errorf("target is empty: pass a file path or an http(s) URL")
	}
	what := target
	if u, err := url.Parse(target); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		switch strings.ToLower(u.Scheme) {
		case "http", "https":
			if u.Host == "" {
				return nil, sdk.Errorf("%s has no host; pass a full URL such as https://example.com", target)
			}
			// The browser requests the address at once, query and all:
			// the conversation must be allowed to reach its host first.
			if err := sdk.CheckHost(ctx, target); err != nil {
				return nil, sdk.Errorf("did not open %s: %v", target, err)
			}
		case "mailto":
		default:
			return nil, sdk.Errorf("%s: only http, https and mailto addresses can be opened; for files pass a path", u.Scheme)
		}
	} else {
		// The opener gets the real path (no links) of what was checked:
		// it cannot take a handle, and a link in the path as given could
		// be flipped to Wrasse's own files before it looks.
		path, _, err := s.env.RealPathArg(target)
		if err != nil {
			return nil, pathError(target, err, "check the path with fs_find")
		}
		what = path
	}
	name, args := openCommand(s.goos, what)
	ctx, cancel := context.WithTimeout(ctx, launchTimeout)
	defer cancel()
	if _, err := s.run(ctx, name, args); err != nil {
		return nil, sdk.Errorf("could not open %s with %s: %v", target, name, err)
	}
	return sdk.Textf("opened %s with the default app", what), nil
}
