# Sourced by the install and reference scripts: installs the Debian packages named in "$@" that are
# missing (as root or via sudo), waiting up to 10 minutes for another apt/dpkg process.
install_debian_packages() {
  local missing=() p sudo=""
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  ((${#missing[@]})) || return 0
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "$(basename "$0"): installing ${missing[*]}" >&2
  local apt_opts=(-o DPkg::Lock::Timeout=600 -y --no-install-recommends)
  export DEBIAN_FRONTEND=noninteractive
  if ! $sudo apt-get install "${apt_opts[@]}" "${missing[@]}"; then
    $sudo apt-get -o DPkg::Lock::Timeout=600 update
    $sudo apt-get install "${apt_opts[@]}" "${missing[@]}"
  fi
}
