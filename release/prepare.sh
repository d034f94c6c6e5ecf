#!/usr/bin/env bash
# Prepares the release commit, or the commit after it. Edits files only: committing, tagging, building and uploading
# are the steps of release/README.md, done by a person.
#
# Usage: release/prepare.sh VERSION           e.g. 0.1.0: from X-SNAPSHOT to the release VERSION
#        release/prepare.sh --next VERSION    e.g. 0.2.0-SNAPSHOT: from the release just made to the next snapshot
#
# VERSION:
#   - sets the version of every module (each pom.xml's own and its parent's, the BOM's, release/pom.xml's) and every
#     other mention of the snapshot version in the tree: README.md's and docs' dependency snippets, the zmtp command's
#     --version;
#   - sets project.build.outputTimestamp (the parent's and the BOM's) to now, the date every jar entry of the release
#     carries;
#   - dates CHANGELOG.md's "## X-SNAPSHOT (unreleased)" section as "## VERSION (YYYY-MM-DD)";
#   - writes the tag's message, "netty-zmtp VERSION" and that CHANGELOG section's first page (up to its
#     "### In detail", if it has one), to target/tag-message-vVERSION.txt.
# --next VERSION:
#   - sets the version of every module, and the zmtp command's, to VERSION (README.md and docs keep showing the
#     release, which is what a user can depend on);
#   - opens a "## VERSION (unreleased)" section at the top of CHANGELOG.md;
#   - writes the release just made into release/api-baseline, so the API check compares with it from now on.
# Either way it fails, having changed nothing, unless the working tree is clean, and checks afterwards that the old
# version is mentioned nowhere it should have been replaced.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

die() { echo "prepare.sh: $*" >&2; exit 1; }

next=false
if [ "${1:-}" = --next ]; then next=true; shift; fi
[ $# -eq 1 ] || die "usage: release/prepare.sh VERSION | release/prepare.sh --next VERSION-SNAPSHOT"
version=$1

current=$(python3 - <<'PY'
import xml.etree.ElementTree as ET
print(ET.parse("pom.xml").getroot().find("{http://maven.apache.org/POM/4.0.0}version").text.strip())
PY
)
[ -z "$(git status --porcelain)" ] || die "the working tree has changes: commit or stash them first"

if $next; then
  [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+-SNAPSHOT$ ]] || die "--next wants a snapshot version (e.g. 0.2.0-SNAPSHOT), not $version"
  [[ $current =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "the tree is at $current, not at a release: run release/prepare.sh VERSION first"
else
  [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "a release version is MAJOR.MINOR.PATCH (e.g. 0.1.0), not $version"
  [ "$current" = "$version-SNAPSHOT" ] || die "the tree is at $current; releasing $version needs $version-SNAPSHOT"
  grep -q "^## $current (unreleased)\$" CHANGELOG.md || die "CHANGELOG.md has no \"## $current (unreleased)\" section"
fi

# Where the old version is replaced: every tracked file that mentions it as a whole version (not 0.1.0 inside 10.1.0 or
# 0.1.0.1), but CHANGELOG.md (dated below, never rewritten), release/ but its pom.xml (the scripts' examples and
# api-baseline name versions on purpose) and, going to the next snapshot, the user-facing documents (*.md), which keep
# showing the release.
pattern="(?<![0-9.])$(printf '%s' "$current" | sed 's/[.]/\\./g')(?![0-9]|\.[0-9])"
exclude=(':!CHANGELOG.md' ':!release/*')
if $next; then exclude+=(':!*.md'); fi
mentions() { { git grep -l -P -e "$pattern" -- "${exclude[@]}"; git grep -l -P -e "$pattern" -- release/pom.xml; } | sort -u; }
files=$(mentions || true)
[ -n "$files" ] || die "no file mentions $current"
for f in $files; do
  perl -pi -e "s/$pattern/$version/g" "$f"
done

today=$(date -u +%Y-%m-%d)
if $next; then
  python3 - "$version" <<'PY'
import sys
version = sys.argv[1]
text = open("CHANGELOG.md").read()
at = text.index("\n## ") + 1
text = text[:at] + f"## {version} (unreleased)\n\nNothing yet.\n\n" + text[at:]
open("CHANGELOG.md", "w").write(text)
PY
  python3 - "$current" <<'PY'
import sys
path = "release/api-baseline"
lines = open(path).read().splitlines()
lines = [l for l in lines if l.startswith("#")] + [sys.argv[1]]
open(path, "w").write("\n".join(lines) + "\n")
PY
else
  stamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  for pom in pom.xml zmtp-bom/pom.xml; do
    sed -i "s|<project.build.outputTimestamp>[^<]*</project.build.outputTimestamp>|<project.build.outputTimestamp>$stamp</project.build.outputTimestamp>|" "$pom"
    grep -q "<project.build.outputTimestamp>$stamp<" "$pom" || die "$pom has no project.build.outputTimestamp to set"
  done
  sed -i "s/^## $current (unreleased)\$/## $version ($today)/" CHANGELOG.md
  mkdir -p target
  {
    echo "netty-zmtp $version"
    echo
    # The section's first page: from its heading (left out) to its "### In detail" part or the next version's heading.
    awk -v head="## $version ($today)" '$0 == head { on = 1; next } on && /^(## |### In detail)/ { exit } on && (started || NF) { started = 1; print }' \
      CHANGELOG.md
  } > "target/tag-message-v$version.txt"
fi

# Nothing that should have changed still says the old version.
left=$(mentions || true)
[ -z "$left" ] || die "still mentioning $current after the edit: $left"

echo "prepare.sh: $current -> $version in:"
git status --porcelain | sed 's/^/  /'
if $next; then
  cat <<EOF
prepare.sh: next: git commit -am "Back to development: $version"
EOF
else
  cat <<EOF
prepare.sh: the tag's message is in target/tag-message-v$version.txt. Next (release/README.md):
  git commit -am "Release $version" && git tag -s v$version -F target/tag-message-v$version.txt
  ./mvnw -B -Prelease clean verify -DskipTests && release/check-bundle.py --strict --key YOUR_KEY
  then upload target/central-bundle.zip, push the commit and the tag, and run release/prepare.sh --next
EOF
fi
