/**
 * What the inspector's browser tests and its bench share: the built CLI started as a user starts it
 * (`agjson inspect … --no-open`, its one stdout line the page's URL), and Debian's chromium driven
 * by playwright-core.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";

/** The checkout: this file's parent (test/), or two up when bundled into .tmp/bench/ by `make bench`. */
export const root = fileURLToPath(new URL(existsSync(new URL("../package.json", import.meta.url)) ? ".." : "../..", import.meta.url));
export const bin = `${root}/bin/agjson.js`;
/** Debian's chromium (scripts/ensure-toolchains.sh installs it for `make test`). */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `${CHROMIUM} is not installed (apt-get install chromium; make test installs it through scripts/ensure-toolchains.sh): the inspector's browser tests are skipped`;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface RunningCli {
  child: ChildProcess;
  /** The URL the command printed (`inspect`) or named on stderr (`proxy`/`serve --inspect`). */
  url: string;
  stderr(): string;
  stop(): Promise<number | null>;
}

/**
 * Starts `agjson <args>` and resolves once `pattern` matches its output (stdout, then stderr): the
 * inspector's URL. Rejects when the command exits first.
 */
export function startCli(args: string[], pattern = /^(http:\/\/\S+\?token=[0-9a-f]+)$/m, stdin?: string): Promise<RunningCli> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  if (stdin !== undefined) child.stdin!.end(stdin);
  let out = "";
  let err = "";
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = pattern.exec(out) ?? pattern.exec(err);
      if (m) resolve({ child, url: m[1]!, stderr: () => err, stop });
    };
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      check();
    });
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      check();
    });
    child.once("exit", (code) => reject(new Error(`agjson ${args.join(" ")} exited ${code}: ${err}`)));
  });
}
