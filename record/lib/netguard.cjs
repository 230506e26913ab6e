// Network guard, loaded with `node --require` before any framework code (docs/record.md "Offline").
// Every outbound TCP connect and DNS lookup is logged; anything that is not loopback is refused
// (the socket errors before a packet leaves) and remembered, so the harness fails the run.
// CommonJS because `--require` must patch `net` before ESM modules import it.
"use strict";
if (!globalThis.__agjsonNetlog) installGuard();

function installGuard() {
  const net = require("node:net");
  const dns = require("node:dns");

  const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost", "::ffff:127.0.0.1"]);
  const log = [];
  globalThis.__agjsonNetlog = log;

  function isLoopback(host) {
    if (host === undefined || host === null || host === "") return true; // Node's default host is localhost
    const h = String(host).replace(/^\[|\]$/g, "");
    return LOOPBACK_HOSTS.has(h) || /^127\./.test(h);
  }

  function note(kind, target, allowed) {
    const entry = { kind, target, allowed };
    log.push(entry);
    if (process.env.AGJSON_RECORD_NETLOG_QUIET !== "1" || !allowed) {
      process.stderr.write(`[netlog] ${kind} ${target}${allowed ? "" : " REFUSED (not loopback)"}\n`);
    }
    return allowed;
  }

  const origConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connect(...args) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const opts =
      typeof first === "object" && first !== null ? first : { port: first, host: typeof args[1] === "string" ? args[1] : undefined };
    if (opts.path !== undefined) {
      note("ipc", String(opts.path), true); // Unix socket: never leaves the machine
    } else if (!note("connect", `${opts.host ?? "localhost"}:${opts.port}`, isLoopback(opts.host))) {
      const err = new Error(`agjson record: outbound connection to ${opts.host}:${opts.port} refused (offline run)`);
      err.code = "ECONNREFUSED";
      process.nextTick(() => this.destroy(err));
      return this;
    }
    return origConnect.apply(this, args);
  };

  function guardLookup(orig) {
    return function lookup(host, ...rest) {
      if (!note("dns", String(host), isLoopback(host))) {
        const cb = rest.find((r) => typeof r === "function");
        const err = Object.assign(new Error(`agjson record: DNS lookup of ${host} refused (offline run)`), { code: "ENOTFOUND" });
        if (cb) return process.nextTick(() => cb(err));
        return Promise.reject(err);
      }
      return orig.call(this, host, ...rest);
    };
  }
  dns.lookup = guardLookup(dns.lookup);
  dns.promises.lookup = guardLookup(dns.promises.lookup);
}
