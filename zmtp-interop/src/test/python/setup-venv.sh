#!/usr/bin/env bash
# Creates the venv whose pyzmq (and the libzmq its wheel bundles) the interop tests talk to.
# Usage: setup-venv.sh VENV_DIR   (python3 from PATH, or $PYTHON)
set -euo pipefail

venv="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
requirements="$here/requirements.txt"
# Copy of the requirements the venv was built from: a changed pin rebuilds it.
stamp="$venv/requirements.txt"

if [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp" \
    && "$venv/bin/python" -c 'import zmq' 2>/dev/null; then
  exit 0
fi

"${PYTHON:-python3}" -m venv --clear "$venv"
# Wheels only: a source build of pyzmq would need a C compiler and might link a system libzmq.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: -r "$requirements"
cp "$requirements" "$stamp"
"$venv/bin/python" -c 'import zmq; print("pyzmq", zmq.__version__, "with libzmq", zmq.zmq_version(), "in '"$venv"'")'
