/**
 * How every conformance runner finds its fixtures (§10, docs/conformance.md): a directory is walked recursively in
 * sorted order and each `*.json` file is one fixture, named by its path relative to that directory
 * with `/` separators on every OS; a single file path names itself.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

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
  return files.map((file) => ({
    name: isDirectory ? relative(path, file).split(sep).join("/") : file,
    file,
    text: readFileSync(file, "utf8"),
  }));
}
