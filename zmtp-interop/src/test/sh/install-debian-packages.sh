#!/usr/bin/env bash
# Makes sure the commands the interop tests run are here, installing their Debian packages with apt-get when one is
# missing; fails, saying what to install, when it can't. Idempotent: with everything present it does nothing and
# needs no root. Run by zmtp-interop's pre-integration-test phase, so `./mvnw -B verify` sets up a fresh machine.
#
# Usage: install-debian-packages.sh WHO COMMAND=PACKAGE...
#   WHO is what needs them, for the messages (e.g. "DeadLinkIT (ip netns, iptables)").
#   e.g. install-debian-packages.sh "DeadLinkIT" ip=iproute2 iptables=iptables
set -euo pipefail

who="$1"
shift
missing=()
for pair in "$@"; do
  cmd="${pair%%=*}"
  pkg="${pair#*=}"
  # iptables and ip live in /usr/sbin, which a non-root PATH may lack.
  command -v "$cmd" >/dev/null 2>&1 || [ -x "/usr/sbin/$cmd" ] || [ -x "/sbin/$cmd" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

fail() {
  cat >&2 <<MSG
install-debian-packages.sh: $1
$who needs the Debian packages: ${missing[*]}
Install them yourself (Debian/Ubuntu):  sudo apt-get update && sudo apt-get install -y ${missing[*]}
or run the build as root (or with password-less sudo), which installs them.
MSG
  exit 1
}

command -v apt-get >/dev/null || fail "apt-get not found, can't install them here."
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null && sudo -n true 2>/dev/null || fail "not root and no password-less sudo."
  sudo="sudo -n"
fi
echo "install-debian-packages.sh: $who: apt-get install ${missing[*]}" >&2
$sudo apt-get -o DPkg::Lock::Timeout=300 update -qq || fail "apt-get update failed."
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >&2 \
  || fail "apt-get install failed."
for pair in "$@"; do
  cmd="${pair%%=*}"
  command -v "$cmd" >/dev/null 2>&1 || [ -x "/usr/sbin/$cmd" ] || [ -x "/sbin/$cmd" ] \
    || fail "$cmd still missing after apt-get install."
done
