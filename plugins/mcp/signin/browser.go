package signin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// OpenBrowser opens url in the person's browser: $BROWSER when set (a
// list separated by ':', each a command with %s standing for the URL or
// the URL appended, as Unix programs read it), else the system's opener
// (xdg-open, open, rundll32's url handler). It returns once the browser
// was started, not when the page is done.
func OpenBrowser(ctx context.Context, url string) error {
	return openWith(ctx, os.Getenv("BROWSER"), runtime.GOOS, url)
}

func openWith(ctx context.Context, browser, goos, url string) error {
	var tried []string
	if browser != "" {
		for _, entry := range strings.Split(browser, ":") {
			fields := strings.Fields(entry)
			if len(fields) == 0 {
				continue
			}
			args := fields[1:]
			placed := false
			for i, a := range args {
				if strings.Contains(a, "%s") {
					args[i] = strings.ReplaceAll(a, "%s", url)
					placed = true
				}
			}
			if !placed {
				args = append(args, url)
			}
			if err := start(ctx, fields[0], args...); err == nil {
				return nil
			}
			tried = append(tried, fields[0])
		}
	}
	var name string
	var args []string
	switch goos {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	default:
		name = "xdg-open"
	}
	if err := start(ctx, name, append(args, url)...); err == nil {
		return nil
	}
	tried = append(tried, name)
	return fmt.Errorf("%w: tried %s; open the address shown yourself", ErrNoBrowser, strings.Join(tried, ", "))
}

// start runs the opener and reaps it in the background: a browser may
// keep running after the page is shown.
func start(_ context.Context, name string, args ...string) error {
	// Not CommandContext: the browser outlives the sign-in.
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
