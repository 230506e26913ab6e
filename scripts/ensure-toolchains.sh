#!/bin/sh
# Installs, when missing, what the other-language round-trip tests run: Debian's python3-jsonschema
# and python3-dateutil (for /usr/bin/python3) and golang-go. Never fails the build on its own: the
# tests that need a toolchain report what is missing.
set -u
need=""
/usr/bin/python3 -c "import jsonschema, dateutil" 2>/dev/null || need="$need python3-jsonschema python3-dateutil"
command -v go >/dev/null 2>&1 || [ -x /usr/lib/go/bin/go ] || need="$need golang-go"
[ -z "$need" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
echo "ensure-toolchains: installing$need"
($SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need) >/dev/null 2>&1 \
  || echo "ensure-toolchains: could not install$need; the tests that need them will say so"
exit 0
