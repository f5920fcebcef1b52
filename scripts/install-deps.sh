#!/usr/bin/env bash
# Installs the Debian packages crates builds and tests with, when they are missing.
# Uses sudo only when not root. Safe to run again: it does nothing when all are present.
set -euo pipefail

packages=(
  libncurses-dev        # ncursesw (libncursesw5-dev is a transitional name for it)
  libsqlite3-dev        # SQLite, under GRDB
  libcurl4-openssl-dev  # the Discogs transport
  libssl-dev            # libcrypto's HMAC-SHA1 for OAuth 1.0a signatures
  tmux                  # end-to-end tests drive the TUI in tmux
  zbar-tools            # the camera daemon's decoder (zbarcam, zbarimg)
  zint                  # barcode images for the camera tests
  libzint-dev           # label symbols (CZint; no pkg-config file, linked by name)
  libcairo2-dev         # label PDFs (CCairo: cairo.h, cairo-pdf.h)
  libisal-dev           # Discogs' data dump: ISA-L's inflate (CIsal)
  isal                  # igzip: the catalogue benchmark's floor beside zcat
  zlib1g-dev            # the generated dumps' gzip, and the tests' reference inflate (CZlib)
  libexpat1-dev         # Discogs' data dump: the streaming XML parser (CExpat)
  libjpeg-dev           # covers: JPEG decoding, libjpeg-turbo (CJpeg)
  libpng-dev            # covers: PNG decoding (CPng)
  libchafa-dev          # covers: images drawn as terminal cells (CChafa)
  libglib2.0-dev        # covers: chafa's header includes glib's
  pkg-config            # covers: chafa's and glib's include paths (CChafa's pkgConfig)
  fonts-dejavu-core     # the font label PDFs embed (DejaVu Sans)
  poppler-utils         # label tests: pdftoppm, pdfinfo, pdftotext
  socat                 # socket tests
  python3               # the loopback Discogs test server
  sqlite3               # the sqlite3 shell: list/export benchmark baseline, lock-holding tests
  unzip                 # import tests: the command suggested for a zipped CSV
  util-linux            # setpriv: the decoder's death signal, privilege-dropping tests
  time                  # /usr/bin/time -v: peak memory in scripts/bench-sync.sh
  ca-certificates       # HTTPS certificate verification
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
