/**
 * The conformance fixtures as one compressed file, so that the npm package can carry all of them
 * (validate/, reduce/, normalize/ and the recorded provider streams normalize fixtures name, with
 * their license notice) in ~120 KB instead of ~1.6 MB of small files. The build writes
 * it (scripts/build-package.mjs); `agjson conformance` unpacks it into a temporary folder laid out
 * like this repository and runs the runners on that.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";

/** The folders of `conformance/` the archive carries. */
export const SUITES = ["validate", "reduce", "normalize"] as const;
const FORMAT = "agjson-conformance-fixtures/1";

interface Archive {
  format: typeof FORMAT;
  /** Path relative to the repository root (`conformance/…`, `fixtures/…`) → file text. */
  files: Record<string, string>;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
}

/** Packs the fixtures of the repository at `root`; the recorded streams come with their README. */
export function packFixtures(root: string): Buffer {
  const files: Record<string, string> = {};
  const add = (abs: string) => {
    files[relative(root, abs).split("\\").join("/")] = readFileSync(abs, "utf8");
  };
  for (const suite of SUITES) {
    const paths: string[] = [];
    walk(join(root, "conformance", suite), paths);
    for (const p of paths) {
      if (!p.endsWith(".json")) continue;
      add(p);
      const nativeFile = suite === "normalize" ? (JSON.parse(readFileSync(p, "utf8")) as { nativeFile?: unknown }).nativeFile : undefined;
      if (typeof nativeFile === "string") {
        add(join(root, nativeFile));
        // The license notice travels with the recorded data (Apache-2.0 asks for it).
        const notice = join(root, nativeFile.split("/").slice(0, 2).join("/"), "README.md");
        if (existsSync(notice)) add(notice);
      }
    }
  }
  const archive: Archive = { format: FORMAT, files };
  const text = JSON.stringify(archive);
  return brotliCompressSync(Buffer.from(text), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  });
}

/** Unpacks an archive into a new temporary folder and returns it (the repository-root layout). */
export function unpackFixtures(archivePath: string): string {
  const archive = JSON.parse(brotliDecompressSync(readFileSync(archivePath)).toString("utf8")) as Partial<Archive>;
  if (archive.format !== FORMAT || typeof archive.files !== "object" || archive.files === null) {
    throw new Error(`${archivePath} is not an agjson fixture archive (${FORMAT})`);
  }
  const root = mkdtempSync(join(tmpdir(), "agjson-conformance-"));
  for (const [path, text] of Object.entries(archive.files)) {
    const abs = resolve(root, path);
    if (!abs.startsWith(root + "/") && !abs.startsWith(root + "\\")) throw new Error(`${archivePath}: ${path} points outside the archive`);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return root;
}
