#!/usr/bin/env bash
# Sets up HttpExampleBrowserIT's browser: Debian's chromium (with apt-get when missing, through
# bench/install-debian-packages.sh) and npm's playwright-core, which drives it, into NODE_DIR/node_modules.
# playwright-core is the driver only: it downloads no browser (`npx playwright install` would, and its downloads are
# not reachable here); the test launches /usr/bin/chromium with it.
# Usage: setup-browser.sh NODE_DIR   (node and npm from PATH, installed from Debian too when missing)
set -euo pipefail

dir="$1"
version="1.65.1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
packages="$here/../../../../bench/install-debian-packages.sh"

fail() {
  echo "setup-browser.sh: $*" >&2
  echo "setup-browser.sh: HttpExampleBrowserIT needs Debian's chromium (apt-get install chromium), Node.js 18 or" \
       "later with npm (apt-get install nodejs npm), and npm's registry reachable for playwright-core@$version" \
       "(\`npm install --prefix $dir playwright-core@$version\`); or rebuild with" \
       "\`./mvnw -pl zmtp-examples -am verify\` as root, which installs them." >&2
  exit 1
}

bash "$packages" "HttpExampleBrowserIT (chromium, Node.js and npm)" \
  chromium=chromium node=nodejs npm=npm || fail "chromium, node or npm missing, and they could not be installed"

check() {
  (cd "$dir" && node -e '
    const pkg = require("playwright-core/package.json");
    if (pkg.version !== process.argv[1]) throw new Error("playwright-core " + pkg.version + ", expected " + process.argv[1]);
    console.log("playwright-core " + pkg.version + " in " + process.cwd());
  ' "$version")
}

if [ -d "$dir/node_modules/playwright-core" ] && check 2>/dev/null; then
  exit 0
fi
mkdir -p "$dir"
# A package.json of our own keeps npm from walking up to some enclosing project's.
[ -f "$dir/package.json" ] || echo '{"name": "zmtp-examples-browser", "private": true}' > "$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "playwright-core@$version" \
  || fail "npm install playwright-core@$version failed (see above)"
check || fail "playwright-core@$version is installed in $dir but does not load (see above)"
