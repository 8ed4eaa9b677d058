#!/usr/bin/env bash
# Installs what building and testing Wrasse needs, when it is missing.
# Debian/Ubuntu: apt packages. Other systems: prints what to install.
set -euo pipefail

need_go="1.26"
if ! command -v go >/dev/null 2>&1; then
	echo "Go $need_go or newer is required: https://go.dev/dl/ (or your package manager)." >&2
	exit 1
fi

# Fyne's cgo build needs a C compiler and the OpenGL/X11 headers.
# git and python3: the sandbox's tests run the person's git and the
# interpreters a git setting may name (python3 -m), and skip without them.
debian_pkgs=(gcc pkg-config libgl1-mesa-dev xorg-dev git python3)
# shellcheck source=apt-install.sh
. "$(dirname "$0")/apt-install.sh"
if command -v apt-get >/dev/null 2>&1; then
	apt_install "" "${debian_pkgs[@]}"
elif command -v dnf >/dev/null 2>&1; then
	echo "Fedora: if the build fails, run: sudo dnf install gcc pkgconf-pkg-config mesa-libGL-devel libXcursor-devel libXrandr-devel libXinerama-devel libXi-devel libXxf86vm-devel" >&2
elif [ "$(uname)" = Darwin ]; then
	xcode-select -p >/dev/null 2>&1 || { echo "macOS: run xcode-select --install (the C compiler Fyne needs)" >&2; exit 1; }
fi
