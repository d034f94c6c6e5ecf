#!/usr/bin/env bash
# Lays out the signed files of the published modules as a Central Portal bundle: BUNDLE_DIR/groupId-as-path/
# artifactId/version/files, each file with its detached signature (.asc, made by maven-gpg-plugin in the module's
# target/) and its checksums (.md5 and .sha1, which Central requires, .sha256 and .sha512, which it accepts), then zips
# the whole into BUNDLE_DIR.zip, the file a release uploads. Run by release/pom.xml in the verify phase of
# ./mvnw -Prelease, after every published module is built and signed.
#
# Usage: stage-bundle.sh BUNDLE_DIR GROUP_ID VERSION ARTIFACT_ID=MODULE_DIR...
#
# What a module publishes is what it signed: every target/ARTIFACT_ID-VERSION*.asc names a file Maven attached to the
# module (jar, -sources, -javadoc, -cyclonedx.json/.xml, the POM). The POM's is the module's pom.xml as it is, which is
# what Maven deploys. A module with no signature at all fails the staging: it was not built with -Prelease, or its
# maven.deploy.skip says it is not published, and either way the bundle would lack it.
set -euo pipefail

[ $# -ge 4 ] || { echo "usage: $0 BUNDLE_DIR GROUP_ID VERSION ARTIFACT_ID=MODULE_DIR..." >&2; exit 2; }
bundle=$(realpath -m "$1") group=$2 version=$3
shift 3

rm -rf "$bundle" "$bundle.zip"
for pair in "$@"; do
  artifact=${pair%%=*} module=${pair#*=}
  dest="$bundle/${group//.//}/$artifact/$version"
  mkdir -p "$dest"
  shopt -s nullglob
  signatures=("$module/target/$artifact-$version"*.asc)
  shopt -u nullglob
  [ ${#signatures[@]} -gt 0 ] || { echo "stage-bundle.sh: no signature of $artifact $version in $module/target" >&2; exit 1; }
  for asc in "${signatures[@]}"; do
    name=$(basename "${asc%.asc}")
    if [ "$name" = "$artifact-$version.pom" ]; then
      src="$module/pom.xml"
    else
      src="$module/target/$name"
    fi
    [ -f "$src" ] || { echo "stage-bundle.sh: $asc signs $name, which is not at $src" >&2; exit 1; }
    cp "$src" "$dest/$name"
    cp "$asc" "$dest/$name.asc"
    # The checksum files hold the hex digest alone, as Maven's own deploy writes them.
    for alg in md5 sha1 sha256 sha512; do
      "${alg}sum" "$dest/$name" | cut -d' ' -f1 | tr -d '\n' > "$dest/$name.$alg"
    done
  done
done

# The zip Central's Portal takes: the same tree, paths relative to BUNDLE_DIR. The JDK's jar writes it (without a
# manifest), as the JDK is the one tool the build already has; the JDK Maven runs on, where JAVA_HOME names it.
jar="${JAVA_HOME:+$JAVA_HOME/bin/}jar"
(cd "$bundle" && "$jar" --create --no-manifest --file "$bundle.zip" .)
echo "stage-bundle.sh: $(find "$bundle" -type f | wc -l) files in $bundle, zipped as $bundle.zip"
