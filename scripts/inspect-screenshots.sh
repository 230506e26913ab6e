#!/bin/sh
# Regenerates the screenshots docs/inspect.md shows: the inspector's browser tests take them
# (test/inspect.browser.test.ts) when AGJSON_INSPECT_SCREENSHOTS names the folder. Needs a built
# package (npm run build) and /usr/bin/chromium (apt-get install chromium).
set -eu
cd "$(dirname "$0")/.."
AGJSON_INSPECT_SCREENSHOTS=docs/images npx vitest run test/inspect.browser.test.ts
ls -l docs/images/inspect-*.png
