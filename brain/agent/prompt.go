package agent

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// Facts describe the computer for the system prompt.
type Facts struct {
	OS       string // runtime.GOOS
	Arch     string // runtime.GOARCH
	Hostname string
	Locale   string // e.g. en_US.UTF-8
	// Folders are the folders the user granted the file and shell tools,
	// when FoldersKnown; the prompt names them, or says that none is
	// granted, so the model asks the user instead of trying.
	Folders      []string
	FoldersKnown bool
}

// maxFolderShown caps a granted folder's path in the prompt.
const maxFolderShown = 256

// HostFacts reads the facts of this computer; getenv supplies the locale
// variables (LC_ALL, LC_MESSAGES, LANG, in that order).
func HostFacts(getenv func(string) string) Facts {
	f := Facts{OS: runtime.GOOS, Arch: runtime.GOARCH}
	if h, err := os.Hostname(); err == nil {
		f.Hostname = h
	}
	if getenv != nil {
		for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
			if v := getenv(k); v != "" {
				f.Locale = v
				break
			}
		}
	}
	return f
}

// SystemPrompt assembles the system prompt: the identity, the environment
// (date to the day, so the prompt cache holds all day), and the capability
// index last. With the stable index (Registry.StableIndex) nothing in it
// moves when the conversation loads or evicts a capability, so it stays a
// warm prompt-cache prefix; the index is last because installing or
// pinning a capability, a settings change, is what still changes it.
func SystemPrompt(identity string, facts Facts, now time.Time, index string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(identity))
	b.WriteString("\n\n<environment>\n")
	fmt.Fprintf(&b, "Today is %s.\n", now.Format("Monday, 2 January 2006"))
	var comp []string
	if facts.OS != "" {
		os := facts.OS
		if facts.Arch != "" {
			os += " (" + facts.Arch + ")"
		}
		comp = append(comp, os)
	}
	if facts.Hostname != "" {
		comp = append(comp, fmt.Sprintf("host name %q", facts.Hostname))
	}
	if facts.Locale != "" {
		comp = append(comp, "locale "+facts.Locale)
	}
	if len(comp) > 0 {
		fmt.Fprintf(&b, "Computer: %s.\n", strings.Join(comp, ", "))
	}
	if facts.FoldersKnown {
		if len(facts.Folders) == 0 {
			b.WriteString("No folder is granted yet: the file and shell tools can use none of the user's files. " +
				"When a task needs files, ask the user to grant a folder in Settings → Folders.\n")
		} else {
			shown := make([]string, len(facts.Folders))
			for i, f := range facts.Folders {
				// The user's paths, but one line each all the same.
				shown[i] = cerebellum.PromptLine(f, maxFolderShown)
			}
			fmt.Fprintf(&b, "Folders the user granted the file and shell tools: %s. Others need the user to grant them in Settings → Folders.\n",
				strings.Join(shown, ", "))
		}
	}
	b.WriteString("Secrets the user saved appear as [redacted:NAME]; never ask for or repeat their values.\n")
	b.WriteString("</environment>")
	if index = strings.TrimSpace(index); index != "" {
		b.WriteString("\n\n")
		b.WriteString(index)
	}
	return b.String()
}
