package settings

import (
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// webName is the capability the Web page configures.
const webName = "web"

// newWebPage is the Web page: the hosts the web capability may fetch from.
func newWebPage(env *bridge.Env, show func(hint.Page, string)) *dependentPage {
	return newDependentPage(env, webName,
		"Which sites the assistant may fetch pages from with the web tools.",
		[]fieldSpec{
			{Key: "allowedHosts", Label: "Allowed hosts", Kind: kindList,
				Help: "One per line: * for any public host, *.example.com for its subdomains, or exact names such as docs.python.org."},
		}, show)
}
