/**
 * The front gate of every agjson loopback server (`agjson proxy`, `agjson serve --agui`, and the
 * Node adapters under them: `createGatewayHandler`, `startProxy`, `toNodeListener`,
 * `startAgUiServer`). Before a request's body is read it refuses what a web page the user happens to
 * visit could send:
 *
 * - **DNS rebinding.** A page on `evil.example` can point its own name at 127.0.0.1 and so become
 *   same-origin with a server there, drive the agent with the user's credentials and read the
 *   answers. Its requests still say `Host: evil.example`, so only the names the server was meant to
 *   be reached by are answered (RFC 9110 §7.2, §7.4): `localhost`, `*.localhost` (RFC 6761 §6.3),
 *   IP literals (no DNS name, so nothing to rebind), the name the server was told to bind, and the
 *   names given with `--allowed-host` / `allowedHosts`.
 * - **Foreign origins.** A browser request that carries an `Origin` (Fetch standard §3.1) is served
 *   only when that origin is the server's own (`http(s)://` + its Host) or the one `cors` allows,
 *   preflight or not, so a page on another site never reaches the agent.
 * - **Optional bearer auth** (RFC 6750 §2.1): with a token configured, every request but a CORS
 *   preflight (which a browser sends without credentials, Fetch standard §4.8) needs
 *   `Authorization: Bearer <token>`, compared in constant time.
 *
 * A refusal is an RFC 9457 problem naming the flag and the library option that would allow the
 * request. The check is a handful of string compares per request; nothing runs per streamed chunk.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { corsResponseHeaders, normalizeOrigin, originAllowed } from "./origin.js";
import { buildProblem, type Problem, type ProblemType } from "./problem.js";

/** What the gate lets through besides the defaults. */
export interface RequestGuardOptions {
  /**
   * Host names answered besides `localhost`, `*.localhost` and IP literals, for a server reached by
   * another name (behind a reverse proxy or load balancer, on a LAN). A name with a leading dot
   * (`.example.com`) also covers its subdomains; `"*"` turns the Host check off.
   */
  allowedHosts?: readonly string[];
  /** The interface the server binds (`--host`): its name is answered too. */
  host?: string;
  /** The browser origin allowed cross-origin (the server's `cors` option), or `*` for any. */
  cors?: string;
  /** A bearer token every request (but a CORS preflight) must carry. */
  token?: string;
}

/** The headers the gate reads, as `node:http` gives them (lower-case names, absent when missing). */
export interface GuardedRequest {
  method: string;
  host?: string | undefined;
  origin?: string | undefined;
  authorization?: string | undefined;
  /** `Access-Control-Request-Method`: present on a CORS preflight only. */
  preflightMethod?: string | undefined;
}

/** Why a request is refused: the problem to answer and the headers that go with it. */
export interface GuardRefusal {
  problem: Problem;
  headers: Record<string, string>;
}

/** A configured gate. `check` answers null for a request that may proceed. */
export interface RequestGuard {
  check(request: GuardedRequest): GuardRefusal | null;
}

/** RFC 3986 §3.2.2 reg-name characters, as a Host check entry may hold them (no port). */
const NAME = /^\.?[a-z0-9_~!$&'()*+,;=%-][a-z0-9._~!$&'()*+,;=%-]*$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** An IPv6 literal, bracketed (as Host carries it, RFC 3986 §3.2.2) or bare; hex, colons, dots. */
const IPV6 = /^\[[0-9a-f:.]*:[0-9a-f:.]*\]$|^[0-9a-f.]*:[0-9a-f.]*:[0-9a-f:.]*$/;
/** RFC 6750 §2.1 credentials can only be visible ASCII; a token outside it could never match. */
const TOKEN = /^[\x21-\x7e]+$/;

/**
 * The name part of a Host value, lower-cased, without port and without one trailing dot
 * (`LocalHost.:8787` → `localhost`, `[::1]:8787` → `[::1]`, a bare `::1` as it is).
 */
function hostName(host: string): string {
  let name = host;
  if (name.startsWith("[")) {
    const end = name.indexOf("]");
    if (end !== -1) name = name.slice(0, end + 1);
  } else {
    const colon = name.indexOf(":");
    // Two colons: a bare IPv6 literal, which cannot carry a port.
    if (colon !== -1 && name.indexOf(":", colon + 1) === -1) name = name.slice(0, colon);
  }
  name = name.toLowerCase();
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/** A host that is no DNS name, so nothing can rebind it: an IPv4 or IPv6 literal. */
function isIpLiteral(name: string): boolean {
  return IPV4.test(name) || IPV6.test(name);
}

const shown = (value: string): string => JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);

const digest = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest();

function refusal(kind: ProblemType, detail: string, headers: Record<string, string> = {}): GuardRefusal {
  return { problem: buildProblem(kind, detail), headers: { "cache-control": "no-store", ...headers } };
}

/**
 * Builds the gate. An `allowedHosts` entry that is not a host name (a port, a scheme, a path) or a
 * token that is not visible ASCII is a TypeError here, when the server is built, not a request
 * refused later for a reason the operator cannot see.
 */
export function createRequestGuard(options: RequestGuardOptions = {}): RequestGuard {
  const exact = new Set<string>(["localhost"]);
  const suffixes: string[] = [".localhost"];
  let anyHost = false;
  const add = (entry: string): boolean => {
    // An entry is a name alone: unlike a Host value, a colon in it is no port separator.
    let name = entry.trim().toLowerCase();
    if (name.endsWith(".") && name.length > 1) name = name.slice(0, -1);
    // An IP literal is answered anyway; in the set it is found without the literal patterns.
    if (isIpLiteral(name)) {
      exact.add(name);
      return true;
    }
    if (!NAME.test(name)) return false;
    if (name.startsWith(".")) {
      suffixes.push(name);
      exact.add(name.slice(1));
    } else exact.add(name);
    return true;
  };
  for (const entry of options.allowedHosts ?? []) {
    if (entry === "*") anyHost = true;
    else if (!add(entry))
      throw new TypeError(
        `allowedHosts: ${shown(entry)} is not a host name (give the name alone, without scheme, port or path; "*" turns the Host check off)`,
      );
  }
  // The bound interface may be something no Host can name (a scoped IPv6 address): then it adds nothing.
  if (options.host !== undefined) add(options.host);
  const cors = options.cors;
  const ownOrigins = (host: string): string[] => [normalizeOrigin(`http://${host}`), normalizeOrigin(`https://${host}`)];
  const token = options.token;
  if (token !== undefined && !TOKEN.test(token))
    throw new TypeError("token: a bearer token is one or more visible ASCII characters (RFC 6750 §2.1), without spaces");
  const expected = token === undefined ? undefined : digest(token);

  const hostAllowed = (name: string): boolean => {
    if (exact.has(name) || isIpLiteral(name)) return true;
    for (const suffix of suffixes) if (name.endsWith(suffix)) return true;
    return false;
  };

  /** The CORS headers a refusal carries so the allowed page's script can read why (Fetch §3.2). */
  const corsOf = (origin: string | undefined): Record<string, string> => corsResponseHeaders(cors, origin);

  return {
    check({ method, host, origin, authorization, preflightMethod }) {
      // A request without Host (HTTP/1.0; node refuses it on HTTP/1.1) comes from no browser, which
      // always sends one, so it cannot be a rebinding.
      if (!anyHost && host !== undefined) {
        const name = hostName(host);
        if (!hostAllowed(name)) {
          return refusal(
            "forbidden-host",
            `Host ${shown(host)} is not a name this server answers for: it answers localhost, *.localhost, IP addresses and the names it was given, ` +
              `so that a web page which points its own domain at this address (DNS rebinding) cannot reach it. ` +
              `To serve requests addressed to this name, start the server with --allowed-host ${name} (library option allowedHosts).`,
            { connection: "close" },
          );
        }
      }
      if (origin !== undefined && cors !== "*") {
        const own = host !== undefined && ownOrigins(host).includes(normalizeOrigin(origin));
        if (!own && !originAllowed(cors, origin)) {
          return refusal(
            "forbidden-origin",
            `Origin ${shown(origin)} is neither this server's own origin nor the one it allows cross-origin, so a page on another site cannot drive it. ` +
              `To let that page call this server, start it with --cors ${origin} (library option cors).`,
            { connection: "close" },
          );
        }
      }
      if (expected !== undefined && !(method === "OPTIONS" && preflightMethod !== undefined && cors !== undefined)) {
        const given = /^bearer +(\S+) *$/i.exec(authorization ?? "")?.[1];
        if (given === undefined) {
          return refusal(
            "unauthorized",
            `this server needs Authorization: Bearer <token> on every request; send the token it was started with (--token-file or AGJSON_TOKEN; library option token)`,
            { "www-authenticate": 'Bearer realm="agjson"', ...corsOf(origin) },
          );
        }
        // Equal-length digests: timingSafeEqual needs equal lengths, and comparing digests tells a
        // timing observer nothing about the token's length or its bytes.
        if (!timingSafeEqual(digest(given), expected)) {
          return refusal("unauthorized", "the bearer token is not the one this server was started with", {
            "www-authenticate": 'Bearer realm="agjson", error="invalid_token"',
            ...corsOf(origin),
          });
        }
      }
      return null;
    },
  };
}

/** The gate's view of a `node:http` request. */
export function guardedNodeRequest(req: IncomingMessage): GuardedRequest {
  const h = req.headers;
  const preflight = h["access-control-request-method"];
  return {
    method: req.method ?? "GET",
    host: h.host,
    origin: h.origin,
    authorization: h.authorization,
    preflightMethod: typeof preflight === "string" ? preflight : undefined,
  };
}

/**
 * Runs the gate on a `node:http` request. A refused request is answered here, its body discarded
 * unread and its connection closed; the return value says whether it was refused.
 */
export function refuseNodeRequest(guard: RequestGuard, req: IncomingMessage, res: ServerResponse): boolean {
  const refused = guard.check(guardedNodeRequest(req));
  if (refused === null) return false;
  req.resume();
  const body = JSON.stringify(refused.problem);
  res.writeHead(refused.problem.status, {
    "content-type": "application/problem+json",
    "content-length": String(Buffer.byteLength(body)),
    ...refused.headers,
  });
  res.end(body);
  return true;
}

/**
 * Runs the gate on a fetch `Request` (for a fetch-style handler served some other way): the
 * refusal as a problem Response, or null. The Host is the request's header, or its URL's host.
 */
export function refuseRequest(guard: RequestGuard, request: Request): Response | null {
  const h = request.headers;
  const refused = guard.check({
    method: request.method,
    host: h.get("host") ?? new URL(request.url).host,
    origin: h.get("origin") ?? undefined,
    authorization: h.get("authorization") ?? undefined,
    preflightMethod: h.get("access-control-request-method") ?? undefined,
  });
  if (refused === null) return null;
  return new Response(JSON.stringify(refused.problem), {
    status: refused.problem.status,
    headers: { "content-type": "application/problem+json", ...refused.headers },
  });
}
