#!/usr/bin/env bash
# Installs what the smoke test (`make smoke`) and the window benchmarks need
# beyond the build: an X server without a screen (Xvfb, with xauth for
# xvfb-run), Mesa's software OpenGL for it, xdotool to type into the
# window and ImageMagick to take screenshots. Debian/Ubuntu only; elsewhere
# it says what is missing.
set -euo pipefail

tools=(xvfb-run xauth xdotool import)
debian_pkgs=(xvfb xauth libgl1-mesa-dri xdotool imagemagick)
if command -v apt-get >/dev/null 2>&1; then
	missing=()
	for p in "${debian_pkgs[@]}"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	if ((${#missing[@]})); then
		sudo=""
		if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
		echo "Installing ${missing[*]} for the smoke test ..."
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi
fi
for t in "${tools[@]}"; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "The smoke test needs $t (packages: Xvfb, xauth, xdotool, ImageMagick)." >&2
		exit 1
	fi
done
