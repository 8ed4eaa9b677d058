#!/usr/bin/env bash
# Installs what the smoke test (`make smoke`) and the window benchmarks need
# beyond the build: an X server without a screen (Xvfb, with xauth for
# xvfb-run), Mesa's software OpenGL for it, xdotool to type into the
# window and ImageMagick to take screenshots. Debian/Ubuntu only; elsewhere
# it says what is missing.
set -euo pipefail

tools=(xvfb-run xauth xdotool import xclip)
# tmux: cmd/wrasse's test that nothing sandboxed drives the app through the person's
# terminal (TestCommandDrivesTheAppThroughTheUsersTmux) runs a real one.
# xclip: the smoke test puts a picture on the clipboard to paste it.
debian_pkgs=(xvfb xauth libgl1-mesa-dri xdotool imagemagick tmux xclip)
# shellcheck source=apt-install.sh
. "$(dirname "$0")/apt-install.sh"
if command -v apt-get >/dev/null 2>&1; then
	apt_install "for the smoke test" "${debian_pkgs[@]}"
fi
for t in "${tools[@]}"; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "The smoke test needs $t (packages: Xvfb, xauth, xdotool, ImageMagick, xclip)." >&2
		exit 1
	fi
done
