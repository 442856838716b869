#!/usr/bin/env bash
# Regenerate Tests/Fixtures/Reference/{tiles,images,naturalearth.mbtiles,manifest.json}
# with Debian's MapServer. Installs what it needs (Debian bookworm, as root or
# via sudo), then runs make_reference.py from the repository root. No network
# is used except by apt-get; MapServer runs as a plain command (no server).
#
# Usage: scripts/reference/make-reference.sh [make_reference.py options]
#   e.g. --margin 0      plain exact-bbox GetMaps (see the README)
#        --no-optipng    skip lossless PNG recompression
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# Debian packages: mapserv CGI binary (cgi-mapserver) and `mapserv -v`
# (mapserver-bin), Pillow for Debian's python3, optipng for PNG recompression.
packages=(cgi-mapserver mapserver-bin python3 python3-pil optipng)

# shellcheck source=../install-debian-packages.sh
source "$here/../install-debian-packages.sh"
install_debian_packages "${packages[@]}"

# Debian's own python3 (where python3-pil lives), not a pyenv/venv one.
python=/usr/bin/python3
if ! "$python" -c 'import PIL' 2>/dev/null; then
  echo "make-reference.sh: $python cannot import PIL" >&2
  exit 1
fi

cd "$root"
exec "$python" scripts/reference/make_reference.py "$@"
