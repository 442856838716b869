#!/usr/bin/env bash
# Renders docs/text-sheet.png: place names in ten script families (Latin with diacritics,
# Cyrillic, Greek, Arabic, Hebrew, Devanagari, Bengali, Thai, Khmer, CJK) drawn as --text
# overlays at (or, where two would overlap, beside) their places on the built-in style, to check by eye that every script is shaped
# with real glyphs (see docs/text.md).
# Usage: scripts/text-sheet.sh [path/to/mapcompose] [output.png]
set -euo pipefail
binary="${1:-.build/release/mapcompose}"
output="${2:-docs/text-sheet.png}"
names=(
  "47.37,8.54,Zürich"     "50.06,19.94,Kraków"   "55.75,37.62,Москва"  "37.98,23.73,Αθήνα"
  "28.30,29.80,القاهرة"   "33.40,38.60,ירושלים"  "28.61,77.21,नई दिल्ली" "23.81,90.41,ঢাকা"
  "15.90,97.50,กรุงเทพมหานคร" "9.60,106.40,ភ្នំពេញ" "35.68,139.69,東京"
)
args=()
for name in "${names[@]}"; do args+=(--text "$name;size=20;color=#7a1020"); done
"$binary" --center 36,72 --zoom 2.9 --size 1200x640 "${args[@]}" "$output"
echo "wrote $output"
