// Package quietlocale keeps the GUI toolkit from logging "Fyne error:
// Error parsing user locale C" before the output of every command under
// LANG=C.UTF-8 (the default of Debian and Ubuntu containers and of minimal
// installs).
//
// The toolkit reads the locale from LC_ALL, LC_MESSAGES or LANG and, when
// that is not exactly "C" or "POSIX", from LANGUAGE first; "C.UTF-8" gives
// the language "C", which does not parse. It does so in its lang
// package's init, before main runs, so the fix has to run earlier still:
// this package's init sets LANGUAGE=en when the locale is C or POSIX with
// a codeset and LANGUAGE is unset, which is English, what the toolkit
// falls back to anyway, without the error.
//
// Go initialises packages in import-path order among those whose imports
// are initialised (the language specification, since Go 1.21). This
// package imports only syscall, so it is ready before os, and sorts
// before os: it runs before os, hence before the toolkit's lang package,
// which needs os. cmd/wrasse imports it for that effect alone.
//
// Restore takes the variable away again, so that the CLI and the
// programs it starts see the environment the person set; Apply puts it
// back for the window, whose toolkit looks the locale up again later.
package quietlocale

import "syscall"

// variable is what the toolkit reads before LANG when LANG is not plain C.
const variable = "LANGUAGE"

// set records whether this process set the variable (and not the person).
var set = apply()

// apply sets LANGUAGE=en when the toolkit would otherwise parse a C or
// POSIX locale with a codeset, and says whether it did.
func apply() bool {
	if v, _ := syscall.Getenv(variable); v != "" {
		return false // the person's own choice (set but empty, the toolkit ignores it)
	}
	if !cWithCodeset(locale()) {
		return false
	}
	return syscall.Setenv(variable, "en") == nil
}

// locale is the locale the toolkit reads: the first of LC_ALL,
// LC_MESSAGES and LANG that is set.
func locale() string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v, ok := syscall.Getenv(k); ok && v != "" {
			return v
		}
	}
	return ""
}

// cWithCodeset reports whether l is the C or POSIX locale with a codeset
// or modifier ("C.UTF-8", "POSIX.utf8", "C@euro"): exactly "C" and
// "POSIX" the toolkit handles itself.
func cWithCodeset(l string) bool {
	for _, base := range []string{"C", "POSIX"} {
		if len(l) > len(base) && l[:len(base)] == base && (l[len(base)] == '.' || l[len(base)] == '@') {
			return true
		}
	}
	return false
}

// Restore takes away the LANGUAGE this package set, if it set one: the
// toolkit's start-up is over, and commands and the programs they run get
// the environment as the person left it.
func Restore() {
	if set {
		_ = syscall.Unsetenv(variable)
	}
}

// Apply sets LANGUAGE=en again where this package had set it: the window's
// toolkit looks the locale up again as it draws, and falls back to English
// quietly with it.
func Apply() {
	if set {
		_ = syscall.Setenv(variable, "en")
	}
}
