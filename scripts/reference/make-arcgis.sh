#!/usr/bin/env bash
# Regenerate Tests/Fixtures/ArcGIS: ArcGIS Server caches (exploded, compact v1 and v2, and a
# custom-grid compact v2 cache) plus an XYZ folder, all seeded by Debian's MapProxy from the
# MapServer rendering of scripts/reference/naturalearth.map, the conf.xml/conf.cdi files ArcGIS
# writes, and MapProxy's WMS GetMap images of the custom cache. Installs what it needs (Debian
# bookworm, as root or via sudo), then runs make_arcgis.py from the repository root. Safe to
# run again: the outputs are wiped and rewritten.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# MapProxy (library, seeder, WMS), the mapserv CGI binary (cgi-mapserver) and `mapserv -v`
# (mapserver-bin), Pillow and numpy for the checks.
packages=(python3-mapproxy cgi-mapserver mapserver-bin python3 python3-pil python3-numpy)

# shellcheck source=../install-debian-packages.sh
source "$here/../install-debian-packages.sh"
install_debian_packages "${packages[@]}"

# Debian's own python3 (where python3-mapproxy lives), not a pyenv/venv one.
python=/usr/bin/python3
if ! "$python" -c 'import mapproxy.grid, PIL, numpy' 2>/dev/null; then
  echo "make-arcgis.sh: $python cannot import mapproxy, PIL and numpy" >&2
  exit 1
fi

cd "$root"
exec "$python" scripts/reference/make_arcgis.py "$@"
