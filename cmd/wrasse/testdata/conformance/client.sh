#!/bin/sh
# The MCP conformance suite's client: `conformance client --command
# client.sh` appends the test server's URL and sets MCP_CONFORMANCE_SCENARIO
# (and MCP_CONFORMANCE_CONTEXT). Every step is a Wrasse CLI command as a
# person would type it, so the suite measures Wrasse's own MCP client:
# mcp add, mcp test (connect and list) and caps call (one tool, approved
# with --yes, which also accepts a server's question when every required
# field has a default). $WRASSE is the wrasse binary; $BROWSER the program
# that opens the sign-in page (the test's stand-in fetches it and follows
# the redirects to Wrasse's loopback listener).
set -eu
url="$1"
wrasse=${WRASSE:-wrasse}
WRASSE_HOME=$(mktemp -d)
export WRASSE_HOME
trap 'rm -rf "$WRASSE_HOME"' EXIT

# A pre-registered client (auth/pre-registration) comes in the context as
# {"client_id": ..., "client_secret": ...}.
ctx=${MCP_CONFORMANCE_CONTEXT:-}
field() {
	[ -n "$ctx" ] || return 0
	node -e 'const c = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT); process.stdout.write(String(c[process.argv[1]] ?? ""))' "$1"
}
id=$(field client_id)
secret=$(field client_secret)
if [ -n "$id" ]; then
	if [ -n "$secret" ]; then
		printf %s "$secret" | "$wrasse" secrets set conf-client-secret
		"$wrasse" mcp add conf --url "$url" --oauth-client-id "$id" --oauth-client-secret '${secret:conf-client-secret}'
		"$wrasse" secrets assign conf-client-secret conf
	else
		"$wrasse" mcp add conf --url "$url" --oauth-client-id "$id"
	fi
else
	# The suite's authorization servers take this URL client ID
	# (auth/basic-cimd); the others have Wrasse register itself.
	"$wrasse" mcp add conf --url "$url" --oauth-client-metadata-url https://conformance-test.local/client-metadata.json
fi
"$wrasse" mcp test conf

call() { "$wrasse" caps call conf "conf__$1" "$2" --yes; }
case "${MCP_CONFORMANCE_SCENARIO:-}" in
tools_call) call add_numbers '{"a": 5, "b": 3}' ;;
elicitation-sep1034-client-defaults) call test_client_elicitation_defaults '{}' ;;
sse-retry) call test_reconnection '{}' ;;
auth/*)
	call test-tool '{}'
	"$wrasse" mcp logout conf
	;;
esac
