/** The version of the agjson package this CLI belongs to (`agjson --version`), read from its package.json. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function packageVersion(): string {
  // src/cli under vitest and dist/esm/src/cli in the package: walk up to agjson's package.json.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "agjson" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // not here (or dist/cjs's format-only package.json); keep walking up
    }
    dir = dirname(dir);
  }
  return "unknown";
}
