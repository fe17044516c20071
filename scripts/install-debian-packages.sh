#!/usr/bin/env bash
# Debian packages the tests need: tesseract (OCR of image-only PDF pages, English and Chinese)
# and chromium (the notebooks' browser test drives it through playwright-core; no browser download).
# Installs only what is missing; uses sudo when not root.
set -euo pipefail
packages=(tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "Debian packages present: ${packages[*]}"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
