#!/usr/bin/env bash
# Everything a fresh machine needs: npm packages (their `prepare` step compiles src/
# to dist/), Debian's Chromium for the browser tests, xmllint for the sitemap schema checks and
# a Java runtime for the Nu HTML checker (vnu-jar; its own postinstall, which would download a
# Java, is not allowed to run).
# Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# apt_install PACKAGE WHY: installs a Debian package (apt-get update once per run).
APT_UPDATED=""
apt_install() {
  echo "setup: installing Debian's $1 $2"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if [ -z "$APT_UPDATED" ]; then
    $SUDO apt-get update -qq
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$1" >/dev/null
}

[ -x /usr/bin/chromium ] || apt_install chromium "for the browser tests"
command -v java >/dev/null 2>&1 || apt_install default-jre-headless "for the Nu HTML checker in the tests"
command -v xmllint >/dev/null 2>&1 || apt_install libxml2-utils "(xmllint) to check the sitemaps against their schemas in the tests"

if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
