// `make bench`: bundles each benchmark with esbuild and runs it in its own process, so one
// benchmark's JIT state never colours another's. Figures are ratios measured in the same run.
import { build } from "esbuild";
import { existsSync, mkdirSync } from "node:fs";
import { spawnSync } from "node:child_process";

const only = process.argv.slice(2);
const skip = (process.env.AGJSON_BENCH_SKIP ?? "").split(",");
const benches = [
  "validate",
  "reduce",
  "normalize",
  "gateway",
  "reinput",
  "frameworks",
  "frameworks-2",
  "bridge-ag-ui",
  "bridge-acp-uims",
  "bridge-provider",
  "memory",
  "inspect",
].filter((b) => (only.length === 0 || only.includes(b)) && !skip.includes(b) && existsSync(new URL(`./${b}.ts`, import.meta.url)));
mkdirSync(new URL("../.tmp/bench/", import.meta.url), { recursive: true });
let failed = 0;
for (const name of benches) {
  const outfile = new URL(`../.tmp/bench/${name}.mjs`, import.meta.url).pathname;
  await build({
    entryPoints: [new URL(`./${name}.ts`, import.meta.url).pathname],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "warning",
    // The browser driver stays a package (it locates its own files at run time).
    external: ["playwright-core"],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  console.log(`\n== bench/${name}.ts`);
  const r = spawnSync(process.execPath, [outfile], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
