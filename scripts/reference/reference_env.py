"""The Python environment of the MapLibre Native reference scripts (make_glyphs.py,
make_style_sheet.py, compare_label_counts.py): Debian's Mesa EGL for headless pymgl, and the
pinned PyPI packages in a virtual environment in a cache folder
($MAPCOMPOSE_REFERENCE_VENV, default ~/.cache/mapcompose/reference-venv), made on first use.

`ensure()` re-runs the calling script with the environment's Python when the packages cannot be
imported by the Python running it.
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["pymgl==0.5.0", "freetype-py==2.5.1", "numpy==2.2.6", "pillow==11.3.0"]
DEBIAN = ["python3-venv", "libegl1", "libegl-mesa0", "libgl1-mesa-dri", "fontconfig", "fonts-noto-core", "fonts-noto-cjk"]
VENV = Path(os.environ.get("MAPCOMPOSE_REFERENCE_VENV",
                           Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mapcompose/reference-venv"))


def _importable():
    try:
        import freetype  # noqa: F401
        import numpy  # noqa: F401
        import PIL  # noqa: F401
        import pymgl  # noqa: F401
        return True
    except ImportError:
        return False


def ensure():
    """Returns when the packages are importable; otherwise installs what is missing and
    re-executes the script under the environment's Python (never returns)."""
    os.environ.setdefault("EGL_PLATFORM", "surfaceless")
    if _importable():
        return
    subprocess.run(["bash", "-c", 'source "$0/scripts/install-debian-packages.sh" && install_debian_packages "$@"',
                    str(ROOT), *DEBIAN], check=True)
    python = VENV / "bin/python"
    marker = VENV / "packages.txt"
    if not python.exists() or not marker.exists() or marker.read_text().split() != PACKAGES:
        subprocess.run(["/usr/bin/python3", "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *PACKAGES],
                       check=True)
        marker.write_text("\n".join(PACKAGES) + "\n")
    if Path(sys.prefix).resolve() == VENV.resolve():
        sys.exit(f"{sys.argv[0]}: {VENV} lacks the packages {PACKAGES}")
    os.execv(str(python), [str(python), *sys.argv])
