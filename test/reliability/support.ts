/**
 * Helpers of the hostile-input suite (issue 20 items 8-11, 15, 16): the built CLI as a user runs
 * it, and the commands in process over chunked bytes with their output collected.
 */
import { spawnSync } from "node:child_process";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { LineOutput } from "../../src/cli/output.js";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const bin = `${root}/bin/agjson.js`;

export function agjson(args: string[], input?: string | Uint8Array): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: "utf8", cwd: root, maxBuffer: 256 << 20 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** `bytes` as an async source of chunks of `size` bytes (records split anywhere). */
export async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

/** A LineOutput whose lines are collected. */
export function collector(): { out: LineOutput; lines: () => string[]; errors: string[] } {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  const errors: string[] = [];
  return { out: new LineOutput(sink), lines: () => text.split("\n").filter((l) => l !== ""), errors };
}

export const enc = (s: string) => new TextEncoder().encode(s);

export const textDelta = (seq: number, extra: object = {}) => JSON.stringify({ type: "text.delta", seq, id: "t1", delta: "hi", ...extra });

/** A JSON value nested `depth` levels deep. */
export const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

export const validateDefaults = {
  posture: "lenient" as const,
  kind: "event" as const,
  json: true,
  format: "auto" as const,
  maxErrors: 20,
  maxRecordBytes: 1 << 20,
  maxDepth: 64,
};
export const reduceDefaults = { format: "auto" as const, pretty: false, maxErrors: 1000, maxRecordBytes: 1 << 20, maxDepth: 64 };
