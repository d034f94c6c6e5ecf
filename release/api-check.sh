#!/usr/bin/env bash
# The API check: compares the published modules' API (release/README.md, "What is API") with the last release's and
# fails on an incompatible change that the version does not allow.
#
# Usage: release/api-check.sh [MAVEN_ARGS...]      e.g. release/api-check.sh -o
#
# The baseline is the release named in release/api-baseline, built here from its tag v<version>: the release build is
# reproducible (release/reproducible.sh), so those jars are byte for byte the ones that were published, and the check
# needs neither the network nor a repository to have them. Before the first release (api-baseline says "none") the
# baseline is the tree of HEAD: in CI, a clean clone, that compares the tree with itself, which proves the machinery
# and nothing more; in a working copy it shows what uncommitted changes do to the API.
#
# The rule (semantic versioning, with 0.x as Cargo and npm read it): an incompatible change (binary or source, as
# japicmp classes them) is allowed only when the major version grows, or, while the major version is 0, when the
# minor version grows. So 0.1.0 -> 0.2.0 may break, 0.1.0 -> 0.1.1 may not, 1.2.0 -> 1.3.0 may not, 1.x -> 2.0.0 may.
# Compatible additions are allowed in any release. The version compared is the tree's, without -SNAPSHOT.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

modules=(zmtp-codec zmtp-socket zmtp-jeromq)   # the published jars: release/check-bundle.py's "jar" artifacts

baseline=$(grep -v '^#' release/api-baseline | tr -d '[:space:]')
[ -n "$baseline" ] || { echo "api-check.sh: release/api-baseline names no version" >&2; exit 1; }
if [ "$baseline" = none ]; then
  ref=HEAD
else
  ref="v$baseline"
  git rev-parse -q --verify "refs/tags/$ref^{commit}" >/dev/null || {
    echo "api-check.sh: release/api-baseline names $baseline, but there is no tag $ref here (git fetch --tags?)" >&2
    exit 1
  }
fi

project_version() {   # the version of the POM in directory $1 (the first <version> after the parent block)
  python3 - "$1/pom.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
print(ET.parse(sys.argv[1]).getroot().find("m:version", ns).text.strip())
PY
}

work=$(mktemp -d "${TMPDIR:-/tmp}/zmtp-api-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/jars"
git archive "$ref" | tar -x -C "$work/src"
old_version=$(project_version "$work/src")
new_version=$(project_version "$root")

echo "api-check.sh: building the baseline, $ref ($old_version), in $work/src"
(cd "$work/src" && ./mvnw -B -q "$@" package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
  -pl "$(IFS=,; echo "${modules[*]}")" -am)
for m in "${modules[@]}"; do
  cp "$work/src/$m/target/$m-$old_version.jar" "$work/jars/"
done

# The rule above, on the versions without -SNAPSHOT.
IFS=. read -r old_major old_minor _ <<<"${old_version%-SNAPSHOT}"
IFS=. read -r new_major new_minor _ <<<"${new_version%-SNAPSHOT}"
if [ "$new_major" -gt "$old_major" ] || { [ "$new_major" -eq 0 ] && [ "$old_major" -eq 0 ] && [ "$new_minor" -gt "$old_minor" ]; }; then
  breaking_fails=false
  echo "api-check.sh: $old_version -> $new_version may break the API: incompatible changes are reported, not failed"
else
  breaking_fails=true
  echo "api-check.sh: $old_version -> $new_version must keep the API compatible: an incompatible change fails"
fi

status=0
for m in "${modules[@]}"; do rm -rf "$m/target/japicmp"; done   # no report of an earlier run
./mvnw -B "$@" verify -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
  -pl "$(IFS=,; echo "${modules[*]}")" -am \
  -Dapi.baseline.dir="$work/jars" -Dapi.baseline.version="$old_version" -Dapi.breaking.fails="$breaking_fails" >"$work/mvn.log" 2>&1 || status=$?
grep -E 'BUILD|ERROR' "$work/mvn.log" || true
for m in "${modules[@]}"; do
  report="$m/target/japicmp/api-check.diff"
  if [ -f "$report" ]; then
    echo "---- $m: $(head -1 "$report")"
    grep -E '^\*\*\*|^\+\+\+|^---|^!!!' "$report" | head -40 || true
  fi
done
exit "$status"
