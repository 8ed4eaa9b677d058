package sandbox

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
)

// The launcher is the Wrasse executable, and the GUI toolkit it links
// logs an error at start-up when the locale does not parse ("C",
// "POSIX"). Commands run with LANG=C.UTF-8, so that error would open the
// output of every command the model runs. The launcher therefore starts
// with a locale the toolkit accepts, and puts the command's own locale
// variables back just before it becomes the command. A plugin process is
// the Wrasse executable too, and does the same (LauncherEnv when it is
// started, CommandEnv as it starts serving).

// The same way, the variables the dynamic loader and C library act on as
// a program starts (LD_PRELOAD, LD_LIBRARY_PATH, GCONV_PATH,
// GLIBC_TUNABLES, MALLOC_*…) are held back from the launcher and handed to
// the command once it is confined: the launcher is a dynamically linked
// program that runs unconfined until it restricts itself, so a library
// they named would run as the person, outside any sandbox.

// localeVars are the variables the toolkit reads the locale from.
var localeVars = [...]string{"LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"}

// envLocale carries the command's locale variables through the launcher.
const envLocale = "WRASSE_SANDBOX_LOCALE"

// launcherLocale is what the launcher itself runs with.
const launcherLocale = "en_US.UTF-8"

// LauncherEnv returns env with the locale variables swapped for
// launcherLocale, the originals saved in envLocale: the environment of a
// process that runs the Wrasse executable on behalf of something else.
func LauncherEnv(env []string) []string {
	saved := map[string]string{}
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if isHeldVar(k) || k == envLocale {
			if k != envLocale {
				saved[k] = v
			}
			continue
		}
		out = append(out, kv)
	}
	enc, _ := json.Marshal(saved) // a map of strings always encodes
	return append(out, envLocale+"="+string(enc), "LANG="+launcherLocale)
}

// CommandEnv undoes LauncherEnv: the launcher's locale goes and the
// command's own variables come back, exactly as they were (absent ones
// stay absent).
func CommandEnv(env []string) []string {
	var saved map[string]string
	out := make([]string, 0, len(env))
	found := false
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if k == envLocale {
			found = json.Unmarshal([]byte(v), &saved) == nil
			continue
		}
		out = append(out, kv)
	}
	if !found {
		return env // not started through Command: leave it alone
	}
	kept := out[:0]
	for _, kv := range out {
		if k, _, _ := strings.Cut(kv, "="); !isHeldVar(k) {
			kept = append(kept, kv)
		}
	}
	names := make([]string, 0, len(saved))
	for k := range saved {
		if isHeldVar(k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		kept = append(kept, k+"="+saved[k])
	}
	return kept
}

// isHeldVar reports whether the launcher holds k back (a locale or a
// loader variable).
func isHeldVar(k string) bool { return isLocaleVar(k) || isLoaderVar(k) }

// isLoaderVar reports whether k is read by the dynamic loader or the C
// library as a program starts, and can make it load or run other code.
func isLoaderVar(k string) bool {
	return strings.HasPrefix(k, "LD_") || strings.HasPrefix(k, "MALLOC_") || strings.HasPrefix(k, "GLIBC_") ||
		k == "GCONV_PATH" || k == "LOCPATH" || k == "NLSPATH" || k == "HOSTALIASES" || k == "RESOLV_HOST_CONF"
}

func isLocaleVar(k string) bool {
	for _, v := range localeVars {
		if k == v {
			return true
		}
	}
	return false
}

// environ is cmd.Env as exec would use it.
func environ(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}
