#!/usr/bin/env python3
"""Checks a release bundle (target/central-bundle, made by ./mvnw -Prelease verify) before it is uploaded.

Usage: release/check-bundle.py [--strict] [--key FINGERPRINT] [BUNDLE_DIR]   (default: target/central-bundle)

Fails (exit 1, one line per problem) unless:
  - the bundle holds exactly the published artifacts, all of one version, each with exactly the files it must have:
    the POM and the CycloneDX SBOM (.json, .xml) for every artifact, plus the jar, -sources.jar and -javadoc.jar for
    the jar modules; each of them with a detached signature (.asc) and its .md5, .sha1, .sha256 and .sha512; nothing
    else (an unpublished module leaking into the bundle fails it too);
  - every signature verifies (gpg --verify), made by FINGERPRINT's key when --key is given;
  - every checksum is the file's;
  - every POM, with what it inherits from a parent (which must be in the bundle: a user resolves it from the same
    repository), names its coordinates (matching its place in the bundle) and the metadata Central requires: name,
    description, url, a licence (name and url), a developer, scm (url and connection);
  - every jar opens; the main jar declares a module name (module-info.class or Automatic-Module-Name); the sources
    jar holds .java files; the javadoc jar holds index.html; each SBOM names its own artifact;
  - target/central-bundle.zip (beside the directory) holds the same files.
--strict adds what only a real release can satisfy: a version without -SNAPSHOT, and no placeholder (.invalid) url.
"""
import hashlib
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

GROUP = "io.zmtp"
# The published artifacts and their packaging: the same list as release/pom.xml's (stage-bundle.sh's arguments).
PUBLISHED = {
    "netty-zmtp-parent": "pom",
    "zmtp-bom": "pom",
    "zmtp-codec": "jar",
    "zmtp-socket": "jar",
    "zmtp-jeromq": "jar",
}
CHECKSUMS = {"md5": hashlib.md5, "sha1": hashlib.sha1, "sha256": hashlib.sha256, "sha512": hashlib.sha512}
NS = {"m": "http://maven.apache.org/POM/4.0.0"}

problems = []


def problem(text):
    problems.append(text)
    print("check-bundle: " + text, file=sys.stderr)


def main_files(artifact, version, packaging):
    base = f"{artifact}-{version}"
    files = [f"{base}.pom", f"{base}-cyclonedx.json", f"{base}-cyclonedx.xml"]
    if packaging == "jar":
        files += [f"{base}.jar", f"{base}-sources.jar", f"{base}-javadoc.jar"]
    return files


def text(element, path):
    found = element.find(path, NS) if element is not None else None
    return found.text.strip() if found is not None and found.text and found.text.strip() else None


def pom_metadata(pom_path, poms):
    """The POM's metadata with what it inherits, as Maven resolves it. The url and scm are inherited as they are, not
    extended with the artifactId: the parent POM says so (child.*.inherit.append.path="false")."""
    root = ET.parse(pom_path).getroot()
    parent = root.find("m:parent", NS)
    inherited = {}
    if parent is not None:
        key = (text(parent, "m:groupId"), text(parent, "m:artifactId"), text(parent, "m:version"))
        if key[0] != GROUP or key[1] not in poms or key[2] not in poms[key[1]]:
            problem(f"{os.path.basename(pom_path)}: its parent {':'.join(str(k) for k in key)} is not in the bundle")
        else:
            inherited = pom_metadata(poms[key[1]][key[2]], poms)
    own = {
        "groupId": text(root, "m:groupId") or text(parent, "m:groupId"),
        "artifactId": text(root, "m:artifactId"),
        "version": text(root, "m:version") or text(parent, "m:version"),
        # Maven does not inherit name, and a description is the artifact's own: each POM must have both itself.
        "name": text(root, "m:name"),
        "description": text(root, "m:description"),
        "url": text(root, "m:url") or inherited.get("url"),
        "licenses": [(text(l, "m:name"), text(l, "m:url")) for l in root.findall("m:licenses/m:license", NS)]
                    or inherited.get("licenses", []),
        "developers": [text(d, "m:name") or text(d, "m:id") for d in root.findall("m:developers/m:developer", NS)]
                      or inherited.get("developers", []),
        "scm.url": text(root, "m:scm/m:url") or inherited.get("scm.url"),
        "scm.connection": text(root, "m:scm/m:connection") or inherited.get("scm.connection"),
    }
    return own


def check_pom(path, artifact, version, poms, strict):
    meta = pom_metadata(path, poms)
    name = os.path.basename(path)
    if (meta["groupId"], meta["artifactId"], meta["version"]) != (GROUP, artifact, version):
        problem(f"{name}: coordinates {meta['groupId']}:{meta['artifactId']}:{meta['version']} are not its place in the bundle")
    for key in ("name", "description", "url", "scm.url", "scm.connection"):
        if not meta[key]:
            problem(f"{name}: no {key}")
        elif "${" in meta[key]:
            problem(f"{name}: {key} is not resolved: {meta[key]}")
    if not meta["licenses"] or not all(n and u for n, u in meta["licenses"]):
        problem(f"{name}: no licence with a name and a url")
    if not meta["developers"] or not all(meta["developers"]):
        problem(f"{name}: no developer with a name or id")
    if strict and meta["url"] and ".invalid" in meta["url"]:
        problem(f"{name}: url {meta['url']} is the placeholder: set the project's address in the parent POM and zmtp-bom")


def check_jars(directory, base):
    try:
        with zipfile.ZipFile(os.path.join(directory, base + ".jar")) as jar:
            names = set(jar.namelist())
            manifest = jar.read("META-INF/MANIFEST.MF").decode("utf-8") if "META-INF/MANIFEST.MF" in names else ""
            if "module-info.class" not in names and "Automatic-Module-Name:" not in manifest:
                problem(f"{base}.jar: declares no module name (module-info.class or Automatic-Module-Name)")
            if not any(n.endswith(".class") for n in names):
                problem(f"{base}.jar: no classes")
        with zipfile.ZipFile(os.path.join(directory, base + "-sources.jar")) as jar:
            if not any(n.endswith(".java") for n in jar.namelist()):
                problem(f"{base}-sources.jar: no .java files")
        with zipfile.ZipFile(os.path.join(directory, base + "-javadoc.jar")) as jar:
            if "index.html" not in jar.namelist():
                problem(f"{base}-javadoc.jar: no index.html")
    except (zipfile.BadZipFile, KeyError, OSError) as e:
        problem(f"{base}: a jar does not open: {e}")


def check_sbom(directory, base, artifact, version):
    purl = f"pkg:maven/{GROUP}/{artifact}@{version}"
    try:
        with open(os.path.join(directory, base + "-cyclonedx.json")) as f:
            bom = json.load(f)
        if bom.get("bomFormat") != "CycloneDX":
            problem(f"{base}-cyclonedx.json: not a CycloneDX document")
        if not bom.get("metadata", {}).get("component", {}).get("purl", "").startswith(purl):
            problem(f"{base}-cyclonedx.json: does not describe {purl}")
        xml_root = ET.parse(os.path.join(directory, base + "-cyclonedx.xml")).getroot()
        if "cyclonedx" not in xml_root.tag:
            problem(f"{base}-cyclonedx.xml: not a CycloneDX document")
    except (OSError, ValueError, ET.ParseError) as e:
        problem(f"{base}: SBOM does not parse: {e}")


def verify_signature(path, key):
    result = subprocess.run(["gpg", "--batch", "--status-fd", "1", "--verify", path + ".asc", path],
                            capture_output=True, text=True)
    status = [line.split() for line in result.stdout.splitlines() if line.startswith("[GNUPG:] ")]
    valid = [fields[2] for fields in status if len(fields) > 2 and fields[1] == "VALIDSIG"]
    if result.returncode != 0 or not valid:
        problem(f"{os.path.basename(path)}.asc: signature does not verify: {result.stderr.strip().splitlines()[-1:]}")
    elif key and not any(fpr.upper().endswith(key.upper()) for fpr in valid):
        problem(f"{os.path.basename(path)}.asc: signed by {valid[0]}, not by {key}")


def main(argv):
    strict = "--strict" in argv
    args = [a for a in argv if a != "--strict"]
    key = None
    if "--key" in args:
        i = args.index("--key")
        key = args[i + 1]
        del args[i:i + 2]
    bundle = args[0] if args else "target/central-bundle"
    group_dir = os.path.join(bundle, *GROUP.split("."))
    if not os.path.isdir(group_dir):
        print(f"check-bundle: {group_dir} does not exist (run ./mvnw -B -Prelease clean verify first)", file=sys.stderr)
        return 1

    # artifact -> version -> path of its POM, for resolving parents within the bundle.
    poms = {}
    versions = set()
    for artifact in sorted(os.listdir(group_dir)):
        if artifact not in PUBLISHED:
            problem(f"{artifact}: in the bundle but not a published artifact")
            continue
        for version in os.listdir(os.path.join(group_dir, artifact)):
            versions.add(version)
            poms.setdefault(artifact, {})[version] = os.path.join(group_dir, artifact, version, f"{artifact}-{version}.pom")
    for artifact in PUBLISHED:
        if artifact not in poms:
            problem(f"{artifact}: missing from the bundle")
    if len(versions) != 1:
        problem(f"the bundle holds versions {sorted(versions)}, not one")
    if strict and any(v.endswith("-SNAPSHOT") for v in versions):
        problem(f"version {sorted(versions)} is a snapshot: Central takes releases only")

    checked = 0
    for artifact, by_version in sorted(poms.items()):
        for version in sorted(by_version):
            directory = os.path.join(group_dir, artifact, version)
            wanted = main_files(artifact, version, PUBLISHED[artifact])
            expected = set()
            for f in wanted:
                expected.add(f)
                expected.add(f + ".asc")
                expected.update(f"{f}.{alg}" for alg in CHECKSUMS)
            present = set(os.listdir(directory))
            for f in sorted(expected - present):
                problem(f"{artifact}/{version}: missing {f}")
            for f in sorted(present - expected):
                problem(f"{artifact}/{version}: unexpected {f}")
            for f in wanted:
                path = os.path.join(directory, f)
                if not os.path.isfile(path):
                    continue
                with open(path, "rb") as fh:
                    data = fh.read()
                for alg, fn in CHECKSUMS.items():
                    sum_path = f"{path}.{alg}"
                    if os.path.isfile(sum_path):
                        with open(sum_path) as sh:
                            recorded = sh.read().split()
                        if not recorded or recorded[0].lower() != fn(data).hexdigest():
                            problem(f"{f}.{alg}: not the file's checksum")
                if os.path.isfile(path + ".asc"):
                    verify_signature(path, key)
                checked += 1
            base = f"{artifact}-{version}"
            if os.path.isfile(os.path.join(directory, base + ".pom")):
                check_pom(os.path.join(directory, base + ".pom"), artifact, version, poms, strict)
            if PUBLISHED[artifact] == "jar" and not (expected - present):
                check_jars(directory, base)
            if not ({base + "-cyclonedx.json", base + "-cyclonedx.xml"} - present):
                check_sbom(directory, base, artifact, version)

    zip_path = bundle.rstrip("/") + ".zip"
    try:
        with zipfile.ZipFile(zip_path) as z:
            zipped = {n for n in z.namelist() if not n.endswith("/")}
        on_disk = {os.path.relpath(os.path.join(d, f), bundle) for d, _, fs in os.walk(bundle) for f in fs}
        if zipped != on_disk:
            problem(f"{zip_path}: does not hold the bundle's files "
                    f"(only in zip: {sorted(zipped - on_disk)[:5]}, only on disk: {sorted(on_disk - zipped)[:5]})")
    except (OSError, zipfile.BadZipFile) as e:
        problem(f"{zip_path}: {e}")

    if problems:
        print(f"check-bundle: {len(problems)} problem(s) in {bundle}", file=sys.stderr)
        return 1
    print(f"check-bundle: {bundle} is complete: {len(poms)} artifacts, version {next(iter(versions))}, {checked} files,"
          f" each signed{' by ' + key if key else ''} and with its md5, sha1, sha256 and sha512; every POM has Central's metadata")
    placeholders = sorted({pom_metadata(path, poms)["url"] for by_version in poms.values() for path in by_version.values()
                           if ".invalid" in (pom_metadata(path, poms)["url"] or "")})
    if placeholders:
        print(f"check-bundle: note: the POMs' url is the placeholder {', '.join(placeholders)}; --strict (a real release)"
              " refuses it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
