#!/usr/bin/env bash
# Regenerates Sources/CratesCore/GS1PrefixTable+Data.swift from the shared GS1 prefix table.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-../shared/gs1/gtin-prefixes.tsv}
{ echo '// The GS1 prefix table (from ../shared/gs1/gtin-prefixes.tsv), compiled into the binary so'
  echo '// that CratesCore needs no file I/O and an installed `crates` needs no resource bundle.'
  echo '// Regenerate with `scripts/gen-gs1-table.sh`; a test checks it still matches the shared table.'
  echo 'extension GS1PrefixTable {'
  echo '    /// Tab-separated `range<TAB>used_by`, as published; the first line is the header.'
  echo '    static let tsv = #"""'
  cat "$src"
  echo '"""#'
  echo '}'; } > Sources/CratesCore/GS1PrefixTable+Data.swift
