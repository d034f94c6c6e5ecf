#!/usr/bin/env bash
# Makes sure what the tests and benchmarks run is here, installing its Debian packages with apt-get when something is
# missing; fails, saying what to install, when it can't. Idempotent: with everything present it does nothing and
# needs no root. Run by zmtp-interop's pre-integration-test phase (so `./mvnw -B verify` sets up a fresh machine) and by
# install-libzmq.sh.
#
# Usage: install-debian-packages.sh WHO CHECK=PACKAGE...
#   WHO is what needs them, for the messages (e.g. "DeadLinkIT (ip netns, iptables)").
#   CHECK is a command that must be on the PATH (or in /usr/sbin, /sbin), or pkg-config:NAME for a library that
#   pkg-config must know.
#   e.g. install-debian-packages.sh "DeadLinkIT" ip=iproute2 iptables=iptables
#        install-debian-packages.sh "the libzmq benchmarks" gcc=gcc pkg-config:libzmq=libzmq3-dev
set -euo pipefail

who="$1"
shift
present() {
  case "$1" in
    pkg-config:*) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "${1#pkg-config:}" ;;
    # iptables and ip live in /usr/sbin, which a non-root PATH may lack.
    *) command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ] ;;
  esac
}

missing=()
for pair in "$@"; do
  present "${pair%%=*}" || missing+=("${pair#*=}")
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
  present "${pair%%=*}" || fail "${pair%%=*} still missing after apt-get install."
done
