#!/bin/sh
# Installs, when missing, what the other-language tests run: Debian's python3-jsonschema and
# python3-dateutil (for /usr/bin/python3), golang-go, chromium (the inspector's browser tests,
# test/inspect.browser.test.ts, drive /usr/bin/chromium with playwright-core), and
# python3-rfc3339-validator (jsonschema's
# date-time checker) where apt has it: Debian 13 does, Debian 12 does not, and there
# test/schema-postures.test.ts checks date-time by RFC 3339's grammar itself. Never fails the build
# on its own: the tests that need a toolchain report what is missing.
set -u
need=""
/usr/bin/python3 -c "import jsonschema, dateutil" 2>/dev/null || need="$need python3-jsonschema python3-dateutil"
command -v go >/dev/null 2>&1 || [ -x /usr/lib/go/bin/go ] || need="$need golang-go"
[ -x /usr/bin/chromium ] || need="$need chromium"
rfc3339=""
/usr/bin/python3 -c "import rfc3339_validator" 2>/dev/null || rfc3339="python3-rfc3339-validator"
[ -z "$need" ] && [ -z "$rfc3339" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
if [ -n "$rfc3339" ] && [ -z "$need" ]; then
  # Optional and maybe not packaged: look it up in the lists apt already has, no update for it.
  apt-cache show "$rfc3339" >/dev/null 2>&1 || exit 0
fi
echo "ensure-toolchains: installing$need${rfc3339:+ $rfc3339 (if packaged)}"
($SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need) >/dev/null 2>&1 \
  || echo "ensure-toolchains: could not install$need; the tests that need them will say so"
if [ -n "$rfc3339" ] && apt-cache show "$rfc3339" >/dev/null 2>&1; then
  (DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$rfc3339") >/dev/null 2>&1 || true
fi
exit 0
