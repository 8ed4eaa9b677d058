# Sourced by the deps scripts: apt_install PURPOSE PKG... installs the
# Debian packages that are missing (with sudo when not root), quietly.
apt_install() {
	local purpose=$1
	shift
	local missing=() p sudo=""
	for p in "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
	echo "Installing ${missing[*]}${purpose:+ $purpose} ..."
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
