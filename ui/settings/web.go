package settings

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// webName is the capability the Web page configures.
const webName = "web"

// newWebPage is the Web page: the hosts the web capability may fetch
// from, and the hosts any chat reaches without asking.
func newWebPage(env *bridge.Env, show func(hint.Page, string)) *dependentPage {
	return newDependentPage(env, webName,
		"Which sites the assistant may fetch pages from with the web tools, and which it reaches without asking.",
		[]fieldSpec{
			{Key: "allowedHosts", Label: "Allowed hosts", Kind: kindList, Check: checkHosts,
				Help: "One per line: * for any public host, *.example.com for its subdomains, or exact names such as docs.python.org."},
			{Key: agent.TrustedHostsSetting, Label: "Always allowed hosts", Kind: kindList, Check: checkTrustedHosts,
				Help: "Hosts any chat may reach without asking, by the web tools, shell commands or plugins: names such as " +
					"docs.python.org, name:port, *.example.com, or * for all. Any other host asks the first time a chat reaches it, " +
					"showing the full address."},
		}, show)
}

// checkTrustedHosts allows what gate.HostAllowed reads, one per line;
// none is allowed too (every host then asks).
func checkTrustedHosts(v string) error {
	for _, h := range splitList(v) {
		if err := gate.CheckHostPattern(h); err != nil {
			return err
		}
	}
	return nil
}

// hostName is a DNS name (or an IPv4 address): labels of letters, digits
// and hyphens joined by dots.
var hostName = regexp.MustCompile(`^(?i)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$`)

// checkHosts allows a comma-separated list of *, *.domain and host names;
// the first item that is none of them is named with how to write it.
func checkHosts(v string) error {
	items := splitList(v)
	if len(items) == 0 {
		return errNoHosts
	}
	for _, h := range items {
		if err := checkHost(h); err != nil {
			return err
		}
	}
	return nil
}

func checkHost(h string) error {
	if h == "*" {
		return nil
	}
	name := strings.TrimPrefix(h, "*.")
	if hostName.MatchString(name) && !strings.Contains(name, "*") {
		return nil
	}
	why := "it is not a host name"
	switch {
	case strings.Contains(h, "://"):
		why = "leave out the http:// or https://"
	case strings.ContainsAny(h, " \t"):
		why = "a host name has no spaces"
	case strings.Contains(h, "/"):
		why = "leave out the path: the host is the part before the first /"
	case strings.Contains(h, ":"):
		why = "leave out the port"
	case strings.Contains(name, "*"):
		why = "a * may only stand alone or start the name, as in *.example.com"
	}
	return fmt.Errorf("%q is not allowed: %s (write *, *.example.com or a name such as docs.python.org)", h, why)
}

// errNoHosts: an empty allowed-hosts list would mean "anywhere" to the
// engine, which is not what clearing the box looks like.
var errNoHosts = errors.New("list at least one host: * allows any public host")
