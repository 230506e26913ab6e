/** The root of the agjson package or clone the running generator belongs to. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The nearest folder above this module whose package.json names agjson: the clone's root from
 * codegen/ and dist/esm/codegen/, node_modules/agjson in an installed package.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: unknown }).name === "agjson") return dir;
    dir = dirname(dir);
  }
  throw new Error("agjson: cannot find the agjson package root (a package.json named agjson above this module)");
}
