#!/usr/bin/env node
// The agjson CLI (docs/cli.md). The implementation is compiled to dist/ by `npm run build`
// (run by `npm ci`/`npm install` through the prepare script).
import { existsSync } from "node:fs";

const entry = new URL("../dist/esm/src/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("agjson: dist/ is missing; run `npm run build` (or `make build`) first\n");
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
