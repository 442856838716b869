#!/usr/bin/env bash
# Regenerate Tests/Fixtures/Reference512/{tiles,manifest.json}: 512-px Web
# Mercator tiles seeded by Debian's MapProxy from a `mapserver` source (MapProxy
# runs /usr/lib/cgi-bin/mapserv itself over scripts/reference/naturalearth.map;
# no server, no network). Installs what it needs (Debian bookworm, as root or via
# sudo), then runs make_mapproxy_512.py from the repository root. Safe to run
# again: the outputs are wiped and rewritten.
#
# Usage: scripts/reference/make-mapproxy-512.sh [make_mapproxy_512.py options]
#   e.g. --no-optipng    skip lossless PNG recompression
#        --keep-workdir  keep mapproxy.yaml, seed.yaml and the MapProxy cache
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# MapProxy (library + seeder), the mapserv CGI binary (cgi-mapserver) and
# `mapserv -v` (mapserver-bin), Pillow and numpy for the checks, optipng.
packages=(python3-mapproxy cgi-mapserver mapserver-bin python3 python3-pil python3-numpy optipng)

# shellcheck source=../install-debian-packages.sh
source "$here/../install-debian-packages.sh"
install_debian_packages "${packages[@]}"

# Debian's own python3 (where python3-mapproxy lives), not a pyenv/venv one.
python=/usr/bin/python3
if ! "$python" -c 'import mapproxy.grid, PIL, numpy' 2>/dev/null; then
  echo "make-mapproxy-512.sh: $python cannot import mapproxy, PIL and numpy" >&2
  exit 1
fi

cd "$root"
exec "$python" scripts/reference/make_mapproxy_512.py "$@"
