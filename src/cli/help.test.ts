/**
 * The `--help` of `agjson normalize` names exactly the facets `--from` accepts (`FACETS`): the
 * command line loads the normalizers only when it runs, so its help spells them and this holds it
 * to the list.
 */
import { describe, expect, it, vi } from "vitest";
import { FACETS } from "../normalize/index.js";
import { main } from "./main.js";

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
    const named = from.replace(/\([^)]*\)/g, "").split(/[,;\s]+/).filter((w) => w !== "");
    expect([...named].sort()).toEqual([...FACETS].sort());
  });
});
