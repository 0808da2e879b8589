#!/usr/bin/env bash
# Everything a fresh machine needs for the tests (the demo needs only `npm ci`), npm packages first
# (their `prepare` step compiles src/ to dist/; skipped when node_modules was installed from this very
# package-lock.json and dist/ is there), then what only the tests need: a Chromium for the browser tests, xmllint for the sitemap
# schema checks and a Java runtime for the Nu HTML checker (vnu-jar; its own postinstall, which
# would download a Java, is not allowed to run). Those are installed with apt where they are missing and the machine has apt-get
# (Debian, Ubuntu); elsewhere (macOS, say) this says how to provide them. Safe to run again.
#
# CHROMIUM_PATH: the browser the tests drive (default /usr/bin/chromium, Debian's).
set -euo pipefail
cd "$(dirname "$0")/.."

# A copy of the lock file an install was made from, kept in node_modules: npm ci (22 s here) only when it differs.
INSTALLED_LOCK=node_modules/.site-setup-lock.json
if [ -f package-lock.json ] && [ -f dist/cli/index.js ] && cmp -s package-lock.json "$INSTALLED_LOCK"; then
  echo "setup: node_modules is current (installed from this package-lock.json): npm ci skipped"
elif [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
  mkdir -p node_modules && cp package-lock.json "$INSTALLED_LOCK"
else
  npm install --no-audit --no-fund
fi

# apt_install PACKAGE WHY: installs a Debian package (apt-get update once per run); returns 1 when the
# machine has no apt-get (or no sudo for it); a failing apt-get stops the set-up.
APT_UPDATED=""
apt_install() {
  command -v apt-get >/dev/null 2>&1 || return 1
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || return 1
    SUDO="sudo"
  fi
  echo "setup: installing Debian's $1 $2"
  if [ -z "$APT_UPDATED" ]; then
    $SUDO apt-get update -qq || { echo "setup: apt-get update failed" >&2; exit 1; }
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$1" >/dev/null ||
    { echo "setup: apt-get install $1 failed" >&2; exit 1; }
}

if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ ! -x "$CHROMIUM_PATH" ]; then
    echo "setup: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file: the browser tests will fail until it points at a Chromium or Chrome" >&2
  fi
elif [ ! -x /usr/bin/chromium ]; then
  apt_install chromium "for the browser tests" ||
    echo "setup: no Chromium at /usr/bin/chromium and no apt-get here: install Chromium or Chrome and run the tests with CHROMIUM_PATH set to it, e.g. CHROMIUM_PATH=\"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome\" npm test (without one the browser tests are skipped)"
fi

command -v java >/dev/null 2>&1 ||
  apt_install default-jre-headless "for the Nu HTML checker in the tests" ||
  echo "setup: no java on the PATH and no apt-get here: install a Java runtime (e.g. brew install openjdk) for the Nu HTML checker in the tests (without it that check is skipped)"

command -v xmllint >/dev/null 2>&1 ||
  apt_install libxml2-utils "(xmllint) to check the sitemaps against their schemas in the tests" ||
  echo "setup: no xmllint on the PATH and no apt-get here: install libxml2 (e.g. brew install libxml2) for the sitemap schema checks in the tests (without it that check is skipped)"
