/**
 * How every conformance runner finds its fixtures (§10, docs/conformance.md): a directory is walked recursively in
 * sorted order and each `*.json` file is one fixture, named by its path relative to that directory
 * with `/` separators on every OS; a single file path names itself.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { decodeUtf8Strict } from "../src/wire/utf8.js";

/**
 * A fixture (or recorded stream) file's text. AgJSON is UTF-8 JSON (§4): bytes that are not UTF-8
 * are an error naming the file and the offset, as for every other input of the CLI — never decoded
 * to U+FFFD and judged as other text.
 */
export function readUtf8File(file: string, name: string = file): string {
  const bytes = readFileSync(file);
  const decoded = decodeUtf8Strict(bytes);
  if (!decoded.ok) throw new Error(`${name}: invalid UTF-8 at byte ${decoded.offset}: AgJSON is UTF-8 JSON (§4)`);
  // A leading BOM is not part of the JSON text (RFC 8259 §8.1 lets a parser ignore it).
  return decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text;
}

/** One fixture file found under a conformance directory, with its text. */
export interface FixtureFile {
  /** Path relative to the directory that was loaded (or the path given, for a single file). */
  name: string;
  /** The file's path as found. */
  file: string;
  /** The file's contents (UTF-8). */
  text: string;
}

function collectJsonFiles(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) collectJsonFiles(path, out);
    else if (entry.endsWith(".json")) out.push(path);
  }
}

/** Every `*.json` fixture under `path` (recursively, sorted), or the single file `path`. */
export function readFixtureFiles(path: string): FixtureFile[] {
  const files: string[] = [];
  const isDirectory = statSync(path).isDirectory();
  if (isDirectory) collectJsonFiles(path, files);
  else files.push(path);
  return files.map((file) => {
    const name = isDirectory ? relative(path, file).split(sep).join("/") : file;
    return { name, file, text: readUtf8File(file, name) };
  });
}
