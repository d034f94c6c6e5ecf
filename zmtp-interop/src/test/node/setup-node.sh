#!/usr/bin/env bash
# Installs npm's zeromq (zeromq.js, whose prebuilt addon links libzmq 4.3.5 built with the draft API) into
# NODE_DIR/node_modules for ThreadSafeInteropIT: the only libzmq peer we have for CLIENT/SERVER, RADIO/DISH,
# SCATTER/GATHER, PEER and CHANNEL (Debian's libzmq and pyzmq's wheel are built without drafts).
# Usage: setup-node.sh NODE_DIR   (node and npm from PATH)
#
# The prebuilt addons ship inside the npm tarball (build/<os>/<arch>/node/<abi>/addon.node), so nothing is
# downloaded but the package itself; the package's install script, which npm may or may not run, only loads the
# addon (and compiles from source if that fails, which needs cmake and vcpkg: we never want that). The check at the
# end is what decides.
set -euo pipefail

dir="$1"
version="6.8.0"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

fail() {
  echo "setup-node.sh: $*" >&2
  echo "setup-node.sh: ThreadSafeInteropIT needs Node.js (18 or later) with npm, and npm's registry reachable:" \
       "install Node.js (Debian: apt-get install nodejs npm), then run" \
       "\`npm install --prefix $dir zeromq@$version\` or rebuild with \`./mvnw -pl zmtp-interop verify\`." >&2
  exit 1
}

# Node.js itself from Debian when it is missing (root or password-less sudo), as the other packages the tests need.
bash "$here/../../../../bench/install-debian-packages.sh" "ThreadSafeInteropIT (Node.js and npm)" \
  node=nodejs npm=npm || fail "no node or npm, and they could not be installed"

# Loads the addon and checks what the tests rely on: the version, the draft API, the draft socket classes.
check() {
  (cd "$dir" && node -e '
    const zmq = require("zeromq");
    const pkg = require("zeromq/package.json");
    if (pkg.version !== process.argv[1]) throw new Error("zeromq " + pkg.version + ", expected " + process.argv[1]);
    if (!zmq.capability.draft) throw new Error("zeromq.js built without the draft API (zmq.capability.draft false)");
    process.removeAllListeners("warning");
    const draft = require("zeromq/draft");
    for (const c of ["Client", "Server", "Radio", "Dish", "Scatter", "Gather"]) {
      if (typeof draft[c] !== "function") throw new Error("no zeromq/draft " + c);
    }
    console.log("zeromq.js " + pkg.version + " with libzmq " + zmq.version + " (draft API on) in " + process.cwd());
  ' "$version")
}

if [ -d "$dir/node_modules/zeromq" ] && check 2>/dev/null; then
  exit 0
fi

mkdir -p "$dir"
# A package.json of our own keeps npm from walking up to some enclosing project's.
[ -f "$dir/package.json" ] || echo '{"name": "zmtp-interop-node-peers", "private": true}' > "$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "zeromq@$version" \
  || fail "npm install zeromq@$version failed (see above)"
check || fail "zeromq@$version is installed in $dir but does not load with the draft API (see above)"
