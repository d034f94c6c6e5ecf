#!/usr/bin/env bash
# Makes a throwaway signing key in a new, empty GNUPGHOME and prints the shell lines that select it:
#   eval "$(release/throwaway-gpg-key.sh)"
# which exports GNUPGHOME (read by gpg, and so by maven-gpg-plugin, which runs gpg) and GPG_KEYNAME (its fingerprint,
# for -Dgpg.keyname). CI signs its release builds with such a key, so that signing and release/check-bundle.sh's
# gpg --verify are exercised on every run; a real release signs with the project's key instead (release/README.md).
# The key has no passphrase and lives only in that directory: remove it with
#   gpgconf --kill gpg-agent; rm -rf "$GNUPGHOME"
set -euo pipefail

command -v gpg >/dev/null || { echo "throwaway-gpg-key.sh: gpg not found (Debian: apt-get install gnupg)" >&2; exit 1; }
# Short path under /tmp: gpg-agent's socket lives in GNUPGHOME and a Unix socket path is limited to ~108 bytes.
home=$(mktemp -d /tmp/zmtp-gpg.XXXXXX)
chmod 700 "$home"
# Ed25519: a small key, quick to make (no entropy wait), accepted by Central and by every gpg 2.1+.
GNUPGHOME="$home" gpg --batch --quiet --pinentry-mode loopback --passphrase '' \
  --quick-generate-key "netty-zmtp CI throwaway key (not a release key) <ci@netty-zmtp.invalid>" ed25519 sign 1d >&2
fingerprint=$(GNUPGHOME="$home" gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')
[ -n "$fingerprint" ] || { echo "throwaway-gpg-key.sh: no key was made in $home" >&2; exit 1; }
printf 'export GNUPGHOME=%q\nexport GPG_KEYNAME=%q\n' "$home" "$fingerprint"
