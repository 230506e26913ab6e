// Process-level network observation for a recording run (docs/record.md "Offline, and how that is
// proven"). netguard.cjs only sees Node processes that inherit NODE_OPTIONS; a framework may start a
// native binary (the Claude Agent SDK's `claude`) or a Node child with an environment of its own.
// So every run is started under `strace -f`: every process and thread the run spawns, whatever it
// is, has its socket-addressing system calls logged, and the harness fails the run on any address
// that is not loopback. Where the kernel allows it, the run also gets a network namespace of its
// own holding only `lo`, so an off-loopback connect fails locally (ENETUNREACH) instead of leaving.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** System calls that name a peer address (connect, and the datagram sends that carry one) or start a process. */
const SYSCALLS = ["connect", "sendto", "sendmsg", "sendmmsg", "execve", "execveat", "clone", "clone3", "fork", "vfork"];
const SPAWNS = new Set(["clone", "clone3", "fork", "vfork"]);
/** Address families that never leave the machine. */
const LOCAL_FAMILIES = new Set(["AF_UNIX", "AF_LOCAL", "AF_NETLINK", "AF_UNSPEC"]);

let probed;
/** Whether strace can trace here, and whether an unprivileged loopback-only network namespace can be made. */
export function traceSupport() {
  if (probed) return probed;
  const strace = spawnSync("strace", ["-f", "--seccomp-bpf", "-qq", "-e", "trace=connect", "-o", "/dev/null", "true"], {
    encoding: "utf8",
  });
  const netns = spawnSync("unshare", ["--net", "--map-root-user", "sh", "-c", "ip link set lo up"], { encoding: "utf8" });
  probed = {
    strace: strace.status === 0,
    straceWhy: strace.error
      ? `strace not found (${strace.error.code}); install it (apt-get install -y strace)`
      : (strace.stderr || "").trim(),
    netns: netns.status === 0,
  };
  return probed;
}

/**
 * The command line running `argv` observed (and, when available, isolated): `strace -f` writing the
 * trace to `log`, around `unshare --net` + `ip link set lo up` when `isolate`.
 */
export function observedCommand(argv, { log, isolate }) {
  const inner = isolate ? ["unshare", "--net", "--map-root-user", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", ...argv] : argv;
  return ["strace", "-f", "--seccomp-bpf", "-qq", "-e", `trace=${SYSCALLS.join(",")}`, "-o", log, ...inner];
}

function isLoopback(family, host) {
  if (family === "AF_INET") return /^127\./.test(host);
  return host === "::1" || /^::ffff:127\./.test(host);
}

/** One peer address in an strace argument list, or undefined when the call names none (a connected send). */
function addressOf(args) {
  const fam = /sa_family=(AF_\w+)/.exec(args);
  if (!fam) return undefined;
  const family = fam[1];
  if (family === "AF_INET") {
    const m = /sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)/.exec(args);
    return { family, host: m?.[2] ?? "?", port: m ? Number(m[1]) : undefined };
  }
  if (family === "AF_INET6") {
    const port = /sin6_port=htons\((\d+)\)/.exec(args);
    const host = /inet_pton\(AF_INET6, "([^"]+)"/.exec(args);
    return { family, host: host?.[1] ?? "?", port: port ? Number(port[1]) : undefined };
  }
  const unixPath = /sun_path=(@?"[^"]*")/.exec(args);
  return { family, host: unixPath ? unixPath[1] : "", port: undefined };
}

/**
 * Reads an `strace -f` log: every call that addressed a peer, with the process (pid and the program
 * it was running, inherited across clone/fork until its own execve) and whether it stayed local.
 * A DNS query (port 53), even to a loopback resolver, counts as leaving: the resolver forwards it.
 * @returns {{ calls: { pid: number, exe: string, syscall: string, family: string, host: string, port?: number, local: boolean, result: string }[], programs: string[] }}
 */
export function readTrace(log) {
  const exe = new Map();
  const pending = new Map(); // pid → the start of a call strace split with <unfinished ...>
  const calls = [];
  const programs = new Set();
  for (const line of fs.readFileSync(log, "utf8").split("\n")) {
    const head = /^(\d+)\s+(.*)$/.exec(line);
    if (!head) continue;
    const pid = Number(head[1]);
    let body = head[2];
    let name;
    const resumed = /^<\.\.\. (\w+) resumed>(.*)$/.exec(body);
    if (resumed) {
      name = resumed[1];
      body = (pending.get(pid) ?? `${name}(`) + resumed[2];
      pending.delete(pid);
    } else {
      const call = /^(\w+)\((.*)$/.exec(body);
      if (!call) continue; // signals, exits
      name = call[1];
      if (body.endsWith("<unfinished ...>")) {
        pending.set(pid, body.slice(0, -"<unfinished ...>".length));
        continue;
      }
    }
    const result = /\)\s+=\s+(.*)$/.exec(body)?.[1] ?? "?";
    if (name === "execve" || name === "execveat") {
      const file = /^\w+\((?:\d+, )?"([^"]*)"/.exec(body)?.[1];
      if (file && result.startsWith("0")) {
        exe.set(pid, path.basename(file));
        programs.add(path.basename(file));
      }
      continue;
    }
    if (SPAWNS.has(name)) {
      const child = Number(/^(\d+)/.exec(result)?.[1]);
      if (child > 0) exe.set(child, exe.get(pid) ?? "?");
      continue;
    }
    const addr = addressOf(body);
    if (!addr) continue;
    const local =
      LOCAL_FAMILIES.has(addr.family) ||
      ((addr.family === "AF_INET" || addr.family === "AF_INET6") && isLoopback(addr.family, addr.host) && addr.port !== 53);
    calls.push({ pid, exe: exe.get(pid) ?? "?", syscall: name, ...addr, local, result });
  }
  return { calls, programs: [...programs] };
}

/** "host:port" of an observed call. */
export function targetOf(c) {
  return c.port === undefined ? `${c.family} ${c.host}` : `${c.family === "AF_INET6" ? `[${c.host}]` : c.host}:${c.port}`;
}
