/**
 * Starts the built `agjson serve` (bin/agjson.js) for the CLI tests and resolves to the URL its
 * stderr names once it listens; the child goes into `children` for the test's clean-up.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

export function startServe(args: string[], children: ChildProcess[]): Promise<{ url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [`${root}bin/agjson.js`, "serve", ...args], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let err = "";
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      err += chunk;
      const url = /AG-UI endpoint on (http:\/\/\S+)/.exec(err)?.[1];
      if (url !== undefined) resolve({ url, stderr: () => err });
    });
    child.once("exit", (code) => reject(new Error(`agjson serve exited ${code}: ${err}`)));
  });
}
