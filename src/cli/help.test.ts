/**
 * The `--help` of `agjson normalize` names exactly the facets `--from` accepts (`FACETS`): the
 * command line loads the normalizers only when it runs, so its help spells them and this holds it
 * to the list.
 */
import { describe, expect, it, vi } from "vitest";
import { AG_UI_SERVER_DEFAULTS } from "../bridges/ag-ui/input-caps.js";
import { GATEWAY_DEFAULTS, INVALID_POLICIES, PROXY_DEFAULTS } from "../gateway/index.js";
import { DEFAULT_MAX_UPLOAD_BYTES } from "../inspect/server.js";
import { FACETS } from "../normalize/index.js";
import { OPENAI_SYSTEM_ROLES, REINPUT_INVALID_POLICIES, REINPUT_TARGETS } from "../reinput/index.js";
import { DOCUMENT_KINDS, POSTURES } from "../validate/index.js";
import { CONVERT_TARGETS } from "./convert-command.js";
import { INSPECT_FROM } from "./inspect-source.js";
import { main } from "./main.js";
import { FORMAT_CHOICES } from "./records.js";

async function help(...command: string[]): Promise<string> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    expect(await main(["node", "agjson", ...command, "--help"])).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return out.replace(/\s+/g, " ");
}

describe("agjson normalize --help", () => {
  it("names every facet --from accepts, and no other", async () => {
    const text = await help("normalize");
    const from = /--from <facet> (.*?) --max-record-bytes/.exec(text)?.[1] ?? "";
    const named = from
      .replace(/\([^)]*\)/g, "")
      .split(/[,;\s]+/)
      .filter((w) => w !== "");
    expect([...named].sort()).toEqual([...FACETS].sort());
  });

  it("names each facet once: the grouped list, not commander's choices after it", async () => {
    const text = await help("normalize");
    const from = /--from <facet> (.*?) --max-record-bytes/.exec(text)?.[1] ?? "";
    expect(from).not.toContain("choices:");
    for (const facet of FACETS) expect(from.match(new RegExp(`(?<![\\w-])${facet}(?![\\w-])`, "g")), facet).toHaveLength(1);
  });

  it("groups the facets by the folder they live in: provider APIs, agent frameworks, agent protocols (docs/architecture.md)", async () => {
    const text = (await help("normalize")).replace(/\s+/g, " ");
    expect(text).toMatch(/ag-ui, a2a \(agent protocols\)|a2a, ag-ui \(agent protocols\)/);
    expect(text).toMatch(/pydantic-ai \(agent frameworks\)/);
  });

  it("still refuses an unknown --from with commander's error naming every choice", async () => {
    let err = "";
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    try {
      expect(await main(["node", "agjson", "normalize", "--from", "nope", "-"])).not.toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(err).toContain("argument 'nope' is invalid. Allowed choices are");
    for (const facet of FACETS) expect(err).toContain(facet);
  });
});

/** The values commander lists for `flag` in a command's help (`(choices: "a", "b", default: …)`). */
function choicesOf(text: string, flag: string): string[] {
  const m = new RegExp(`${flag} <[a-z]+> [^]*?\\(choices: ((?:"[^"]+"(?:, )?)+)`).exec(text);
  return m ? [...m[1]!.matchAll(/"([^"]+)"/g)].map((x) => x[1]!) : [];
}

describe("every flag with a fixed set of values lists the library's own table (#34)", () => {
  it.each([
    ["validate", "--posture", POSTURES],
    ["validate", "--kind", DOCUMENT_KINDS],
    ["validate", "--format", FORMAT_CHOICES],
    ["reduce", "--format", FORMAT_CHOICES],
    ["proxy", "--posture", POSTURES],
    ["proxy", "--on-invalid", INVALID_POLICIES],
    ["reinput", "--to", REINPUT_TARGETS],
    ["reinput", "--on-invalid", REINPUT_INVALID_POLICIES],
    ["reinput", "--system-role", OPENAI_SYSTEM_ROLES],
    ["convert", "--to", Object.keys(CONVERT_TARGETS)],
    ["convert", "--format", FORMAT_CHOICES],
    ["serve", "--from", REINPUT_TARGETS],
    ["acp", "--from", REINPUT_TARGETS],
    ["inspect", "--from", INSPECT_FROM],
  ] as const)("agjson %s %s", async (command, flag, table) => {
    expect(choicesOf(await help(command), flag)).toEqual([...table]);
  });

  it("defaults come from the tables too", async () => {
    const proxy = await help("proxy");
    expect(proxy).toContain(`--port <n> port to listen on (default: "${PROXY_DEFAULTS.port}")`);
    expect(proxy).toMatch(new RegExp(`--on-invalid <policy> [^]*?default: "${GATEWAY_DEFAULTS.onInvalid}"\\)`));
    expect(await help("inspect")).toContain(`(default ${DEFAULT_MAX_UPLOAD_BYTES})`);
    const serve = await help("serve");
    expect(serve).toMatch(new RegExp(`--port <n> [^]*?default: "${AG_UI_SERVER_DEFAULTS.port}"\\)`));
    expect(serve).toMatch(new RegExp(`--host <host> [^]*?default: "${AG_UI_SERVER_DEFAULTS.host.replaceAll(".", "\\.")}"\\)`));
  });
});
