#!/usr/bin/env bash
# Builds the release twice from clean and compares what it would publish, byte for byte.
#
# Usage: release/reproducible.sh [MAVEN_ARGS...]     e.g. release/reproducible.sh -Dgpg.keyname=FINGERPRINT
#
# Build 1 runs in this tree and leaves its bundle in target/central-bundle (and .zip), for release/check-bundle.py.
# Build 2 runs in a copy of the tree's files at another path (the tracked and the untracked but not ignored ones, as
# they are in the working tree), so that an absolute path, a build time or anything else of the build's own that
# reaches an artifact shows up as a difference. Every file of the two bundles is compared except the signatures (.asc):
# a signature holds the time it was made, so two are never the same; what they sign is compared. Any difference, or
# a file in one bundle only, fails, with the differing jar entries listed.
#
# Both builds skip the tests and their compilation (-Dmaven.test.skip=true, which also skips the integration tests'
# set-up, skipITs): CI's first pass ran them, and test classes are not in any published artifact. Only the published
# modules (and what they need to build) are built: the others publish nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

build=(-B -Prelease clean verify -Dmaven.test.skip=true -pl zmtp-bom,zmtp-codec,zmtp-socket,zmtp-jeromq,release -am)
copy=$(mktemp -d "${TMPDIR:-/tmp}/zmtp-reproducible.XXXXXX")
trap 'rm -rf "$copy"' EXIT

started=$SECONDS
echo "reproducible.sh: build 1 in $root"
./mvnw "${build[@]}" "$@" >"$copy.build1.log" 2>&1 || { tail -60 "$copy.build1.log"; echo "reproducible.sh: build 1 failed (log: $copy.build1.log)" >&2; exit 1; }
echo "reproducible.sh: build 1 took $((SECONDS - started)) s"

mkdir "$copy/src"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"   # a file deleted in the working tree but not yet in the index is not there
done | (cd "$root" && xargs -0 cp --parents -t "$copy/src")
started=$SECONDS
echo "reproducible.sh: build 2 in $copy/src"
(cd "$copy/src" && ./mvnw "${build[@]}" "$@" >"$copy.build2.log" 2>&1) || { tail -60 "$copy.build2.log"; echo "reproducible.sh: build 2 failed (log: $copy.build2.log)" >&2; exit 1; }
echo "reproducible.sh: build 2 took $((SECONDS - started)) s"
rm -f "$copy.build1.log" "$copy.build2.log"

one="$root/target/central-bundle" two="$copy/src/target/central-bundle"
list() { (cd "$1" && find . -type f ! -name '*.asc' | sort); }
differences=0
if ! diff <(list "$one") <(list "$two") >"$copy/lists.diff"; then
  echo "reproducible.sh: the two bundles do not hold the same files:" >&2
  cat "$copy/lists.diff" >&2
  differences=1
fi
compared=0
while IFS= read -r f; do
  [ -f "$two/$f" ] || continue
  compared=$((compared + 1))
  if ! cmp -s "$one/$f" "$two/$f"; then
    differences=1
    echo "reproducible.sh: DIFFERS: ${f#./}" >&2
    case "$f" in
      *.jar)  # which entries differ: their listing with sizes and dates, then each entry's CRC
        diff <(unzip -lv "$one/$f" | awk 'NR > 3 { print $1, $5, $6, $7, $8 }') \
             <(unzip -lv "$two/$f" | awk 'NR > 3 { print $1, $5, $6, $7, $8 }') | head -20 >&2 || true ;;
      *) diff "$one/$f" "$two/$f" | head -20 >&2 || true ;;
    esac
  fi
done < <(list "$one")

if [ "$differences" -ne 0 ]; then
  echo "reproducible.sh: the release build is NOT reproducible (see above)" >&2
  exit 1
fi
echo "reproducible.sh: reproducible: the two builds' $compared files (all but the signatures) are identical byte for byte"
