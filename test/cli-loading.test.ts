// docs/architecture.md: `main.ts` loads a command's module only when that command runs, so
// `npx agjson validate` never pays for the gateway, the bridges, re-input, the generator or the
// conformance fixtures. A module-load hook records every file the CLI process loads; each command
// must load its own command module and no other, and no codegen/ or conformance/ module unless it
// is `gen` or `conformance`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin", "agjson.js");
const cliDir = join(root, "dist", "esm", "src", "cli");

/** Every command module the CLI has (`<name>-command.js`), read from the build so a new one is covered. */
const COMMAND_MODULES = readdirSync(cliDir).filter((f) => f.endsWith("-command.js"));

const hooks = mkdtempSync(join(tmpdir(), "agjson-load-"));
writeFileSync(
  join(hooks, "hooks.mjs"),
  `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(process.env.AGJSON_LOAD_LOG, url + "\\n");
  return next(url, context);
}
`,
);
writeFileSync(
  join(hooks, "register.mjs"),
  `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(hooks, "hooks.mjs")).href)});\n`,
);

/** The repository-relative paths of the files `agjson <args>` loaded. */
function loadedBy(args: string[], cwd = root): { loaded: string[]; status: number | null; stderr: string } {
  const log = join(hooks, `log-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, "");
  const run = spawnSync(process.execPath, ["--import", pathToFileURL(join(hooks, "register.mjs")).href, bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, AGJSON_LOAD_LOG: log },
    input: "",
  });
  const loaded = readFileSync(log, "utf8")
    .split("\n")
    .filter((u) => u.startsWith(pathToFileURL(root).href))
    .map((u) => u.slice(pathToFileURL(root).href.length + 1));
  return { loaded, status: run.status, stderr: run.stderr };
}

/** A folder holding a valid event stream in a file named `proxy`. */
const proxyFileDir = mkdtempSync(join(tmpdir(), "agjson-load-cwd-"));
writeFileSync(join(proxyFileDir, "proxy"), readFileSync(join(root, "samples", "chat-with-tool.ndjson")));

const RUNS: { command: string; args: string[]; own: string; cwd?: string }[] = [
  { command: "validate", args: ["validate", "samples/chat-with-tool.ndjson"], own: "validate-command.js" },
  { command: "reduce", args: ["reduce", "samples/chat-with-tool.ndjson"], own: "reduce-command.js" },
  { command: "normalize", args: ["normalize", "--from", "anthropic", "samples/anthropic-weather.chunks.txt"], own: "normalize-command.js" },
  { command: "convert", args: ["convert", "--to", "ag-ui", "samples/chat-with-tool.ndjson"], own: "convert-command.js" },
  { command: "reinput", args: ["reinput", "--help"], own: "reinput-command.js" },
  { command: "proxy", args: ["proxy", "--help"], own: "proxy-command.js" },
  { command: "serve", args: ["serve", "--help"], own: "serve-command.js" },
  { command: "acp", args: ["acp", "--help"], own: "acp-command.js" },
  { command: "inspect", args: ["inspect", "--help"], own: "inspect-command.js" },
  // `proxy` as a file name is validate's argument, never the proxy command.
  { command: "validate", args: ["validate", "--kind", "event", "proxy"], own: "validate-command.js", cwd: proxyFileDir },
  { command: "help", args: ["help", "reduce"], own: "reduce-command.js" },
];

describe("each command loads only its own command module (docs/architecture.md)", () => {
  it("finds the command modules in the build", () => {
    expect(COMMAND_MODULES).toEqual(expect.arrayContaining(RUNS.map((r) => r.own)));
  });

  for (const run of RUNS) {
    it(`agjson ${run.args.join(" ")}`, () => {
      const { loaded, status, stderr } = loadedBy(run.args, run.cwd);
      expect({ status, stderr: status === 0 ? "" : stderr }).toEqual({ status: 0, stderr: "" });
      const commands = loaded
        .filter((f) => f.startsWith("dist/esm/src/cli/") && f.endsWith("-command.js"))
        .map((f) => f.slice("dist/esm/src/cli/".length));
      // --help of a command must still describe its options, so its own module may load for it.
      expect(commands.filter((c) => c !== run.own)).toEqual([]);
      expect(loaded.filter((f) => /(^|\/)(codegen|conformance)\//.test(f))).toEqual([]);
      // validate, reduce and normalize never load the gateway (a file named `proxy` once loaded it).
      if (["validate-command.js", "reduce-command.js", "normalize-command.js"].includes(run.own))
        expect(loaded.filter((f) => f.startsWith("dist/esm/src/gateway/"))).toEqual([]);
    });
  }

  it("agjson --help names every command without loading any command module", () => {
    const { loaded, status } = loadedBy(["--help"]);
    expect(status).toBe(0);
    expect(loaded.filter((f) => f.endsWith("-command.js"))).toEqual([]);
  });
});
