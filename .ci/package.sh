#!/usr/bin/env bash
# Builds the installable app with the fyne tool: on Linux bin/Wrasse.tar.xz
# (the binary, the icon and a .desktop entry, with a Makefile that installs
# them). Name, ID, version, icon and the desktop entry's fields come from
# FyneApp.toml.
#
# The fyne tool reads FyneApp.toml from the folder of the main package it
# builds, and bumps its Build number there afterwards. So the main package
# is staged with a copy of the file and the icon under bin/_package (the
# leading underscore keeps `go build ./...` out of it): the repository's
# own files are never touched, and `fyne package` still does the real
# build (release mode, its migrated_fynedo tag, the metadata compiled in).
set -euo pipefail
cd "$(dirname "$0")/.."

fyne_version=v1.7.4
fyne="$(go env GOPATH)/bin/fyne"
if ! "$fyne" version 2>/dev/null | grep -F "$fyne_version" >/dev/null; then
	echo "Installing the fyne tool $fyne_version ..."
	go install "fyne.io/tools/cmd/fyne@$fyne_version"
fi

os=$(go env GOOS)
stage=bin/_package/wrasse
rm -rf bin/_package
mkdir -p "$stage"
trap 'rm -rf bin/_package' EXIT
for f in cmd/wrasse/*.go; do
	case "$f" in *_test.go) continue ;; esac
	cp "$f" "$stage/"
done
cp assets/icon.png "$stage/Icon.png"
sed -E 's#^([[:space:]]*Icon[[:space:]]*=[[:space:]]*).*#\1"Icon.png"#' FyneApp.toml >"$stage/FyneApp.toml"

echo "Packaging Wrasse for $os (a release build of the GUI toolkit takes a few minutes the first time) ..."
(cd "$stage" && "$fyne" package --os "$os" --release)

case "$os" in
linux | freebsd | netbsd | openbsd)
	mv "$stage/Wrasse.tar.xz" bin/
	echo "Built bin/Wrasse.tar.xz:"
	tar -tJf bin/Wrasse.tar.xz | sed 's/^/  /'
	;;
darwin)
	rm -rf bin/Wrasse.app
	mv "$stage/Wrasse.app" bin/
	echo "Built bin/Wrasse.app"
	;;
windows)
	mv "$stage/wrasse.exe" bin/Wrasse.exe
	echo "Built bin/Wrasse.exe"
	;;
esac
