/**
 * The inspector's loopback server (docs/inspect.md "Security"). A stream is hostile input and the
 * page is a local server, so every request must carry the per-run token (403 without it), `Host`
 * must name this server by IP literal, `localhost` or the `--host` given (a rebound DNS name is
 * refused), an `Origin` must be this server's own, and every answer carries a Content-Security-Policy
 * with no inline script and no remote origin. The page is static (built by esbuild into
 * dist/inspect/); the answers of `/api/*` are computed here with the library (analyze.ts).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { fileURLToPath } from "node:url";
import { originAllowed } from "../gateway/index.js";
import { docOf, type InspectDoc, type DocMeta, type LoadedSource, type RowFilter } from "./analyze.js";
import type { InspectConfig } from "./protocol.js";

/** Reads an upload into a source (the CLI's reader: the same sniffing as `agjson normalize`), or says why not. */
export type SourceLoader = (bytes: Uint8Array, name: string, from: string | undefined) => Promise<LoadedSource | string>;

export interface InspectorOptions {
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
  /** The per-run token; default 32 random bytes, hex. */
  token?: string;
  /** Largest upload (drop or paste), bytes; default 64 MiB. */
  maxUploadBytes?: number;
  /** Streams open at most (files, uploads, live streams); default 64. */
  maxDocs?: number;
  load: SourceLoader;
  /** The `from` names `load` takes (the page's format selector offers them): `--from`'s list. */
  formats: readonly string[];
}

export interface RunningInspector {
  /** The page's URL, token included: the one line the CLI prints. */
  url: string;
  port: number;
  token: string;
  server: Server;
  /** Opens a stream read whole; returns its doc. */
  add(source: LoadedSource): InspectDoc;
  /** Opens an empty live stream the caller appends to (`doc.append` then `changed()`). */
  live(meta: DocMeta): InspectDoc;
  /** Tells open pages that a live stream grew. */
  changed(): void;
  close(): Promise<void>;
}

/** Upload cap by default (a recording of 100,000 events is about 10 MB). */
export const DEFAULT_MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_DOCS = 64;
/** Rows one request may ask for. */
const MAX_ROWS = 1000;

/** The page's policy: its own script and style only, no inline code, no other origin, no frames. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'; font-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/** The page bundle: dist/inspect/ beside the built package, or the checkout's dist/ when run from source. */
function assetDir(): string | undefined {
  for (const rel of ["../../../inspect/", "../../dist/inspect/"]) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}page.js`)) return dir;
  }
  return undefined;
}

function html(token: string): string {
  // The token is hex (checked below); no stream content is ever written into this document.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agjson inspect</title>
<link rel="stylesheet" href="/page.css?token=${token}">
<script type="module" src="/page.js?token=${token}"></script>
</head>
<body>
<noscript>The agjson inspector needs JavaScript.</noscript>
</body>
</html>
`;
}

function tokenMatches(given: string | null | undefined, token: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A `Host` authority this server answers to: its port, and an IP literal, `localhost` or the bound host. */
function hostAllowed(host: string | undefined, port: number, bound: string): boolean {
  if (host === undefined) return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d+)$/.exec(host);
  if (!m || Number(m[2]) !== port) return false;
  const name = m[1]!.toLowerCase();
  const bare = name.startsWith("[") ? name.slice(1, -1) : name;
  return name === "localhost" || isIP(bare) !== 0 || name === bound.toLowerCase();
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

function refuse(res: ServerResponse, status: number, message: string): void {
  json(res, status, { error: message });
}

function filterOf(q: URLSearchParams): RowFilter {
  const f: RowFilter = {};
  for (const k of ["family", "turn", "message", "tool", "q"] as const) {
    const v = q.get(k);
    if (v !== null && v !== "") f[k] = v;
  }
  if (q.get("problems") === "1") f.problems = true;
  return f;
}

function intOf(v: string | null, fallback: number): number {
  const n = Number(v);
  return v !== null && Number.isSafeInteger(n) ? n : fallback;
}

/** Starts the inspector; resolves once it listens. */
export async function startInspector(opts: InspectorOptions): Promise<RunningInspector> {
  const host = opts.host ?? "127.0.0.1";
  const token = opts.token ?? randomBytes(32).toString("hex");
  if (!/^[0-9a-f]{32,}$/.test(token)) throw new Error("the inspector token must be at least 32 lower-case hex digits");
  const maxUpload = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const maxDocs = opts.maxDocs ?? DEFAULT_MAX_DOCS;
  const docs = new Map<string, InspectDoc>();
  let nextId = 1;
  const listeners = new Set<ServerResponse>();
  const assets = assetDir();
  let port = 0;

  const summaries = () => [...docs.values()].map((d) => d.summary());
  let pending: NodeJS.Timeout | undefined;
  const changed = (): void => {
    if (pending !== undefined) return;
    // Coalesced: a live stream of many small events sends the page a few notices a second.
    pending = setTimeout(() => {
      pending = undefined;
      const data = `data: ${JSON.stringify(summaries())}\n\n`;
      for (const res of listeners) res.write(data);
    }, 100);
  };
  const add = (source: LoadedSource): InspectDoc => {
    // A long-running proxy opens a live stream per request: past the cap the oldest live one goes.
    if (docs.size >= maxDocs) {
      const oldest = [...docs.values()].find((d) => d.meta.live === true);
      if (oldest !== undefined) {
        oldest.dispose();
        docs.delete(oldest.id);
      }
    }
    const doc = docOf(String(nextId++), source);
    docs.set(doc.id, doc);
    changed();
    return doc;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req.headers.host, port, host))
      return refuse(res, 403, "Host is not this inspector (it answers to 127.0.0.1, localhost or an IP address, with its port)");
    const origin = req.headers.origin;
    // The page's own origin, compared as every agjson server compares origins (scheme and host
    // without case, RFC 6454 §6.2): the Host check above already reads the name without case.
    if (origin !== undefined && !originAllowed(`http://${req.headers.host}`, origin))
      return refuse(res, 403, "cross-origin request refused");
    if (req.headers["sec-fetch-site"] === "cross-site") return refuse(res, 403, "cross-site request refused");
    const url = new URL(req.url ?? "/", "http://inspector.invalid");
    const given = url.searchParams.get("token") ?? req.headers["x-agjson-token"];
    if (!tokenMatches(Array.isArray(given) ? given[0] : given, token))
      return refuse(res, 403, "this inspector needs its token: open the URL `agjson inspect` printed");
    const path = url.pathname;
    const q = url.searchParams;

    if (req.method === "POST" && path === "/api/docs") return upload(req, res, q);
    if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "GET or POST only");
    if (path === "/") return send(res, 200, "text/html; charset=utf-8", html(token));
    if (path === "/page.js" || path === "/page.css") {
      if (assets === undefined) return refuse(res, 500, "the page bundle is missing: run `npm run build`");
      return send(
        res,
        200,
        path.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
        readFileSync(`${assets}${path.slice(1)}`),
      );
    }
    if (path === "/api/docs") return json(res, 200, summaries());
    if (path === "/api/config") return json(res, 200, { maxUploadBytes: maxUpload, formats: opts.formats } satisfies InspectConfig);
    if (path === "/api/live") {
      res.writeHead(200, { ...SECURITY_HEADERS, "content-type": "text/event-stream; charset=utf-8" });
      res.write(`data: ${JSON.stringify(summaries())}\n\n`);
      listeners.add(res);
      req.on("close", () => listeners.delete(res));
      return;
    }
    const m = /^\/api\/docs\/(\d+)\/(rows|position|families|event|fold|problems|protocols|next)$/.exec(path);
    const doc = m ? docs.get(m[1]!) : undefined;
    if (!m || doc === undefined) return refuse(res, 404, "no such page or stream");
    switch (m[2]) {
      case "rows":
        return json(
          res,
          200,
          doc.rows(Math.max(0, intOf(q.get("offset"), 0)), Math.min(MAX_ROWS, Math.max(0, intOf(q.get("limit"), 100))), filterOf(q)),
        );
      case "position":
        return json(res, 200, { position: doc.positionOf(intOf(q.get("index"), -1), filterOf(q)) });
      case "families":
        return json(res, 200, doc.families());
      case "event": {
        const e = doc.event(intOf(q.get("index"), -1));
        return e === undefined ? refuse(res, 404, "no such event") : json(res, 200, e);
      }
      case "fold":
        return json(res, 200, doc.fold(intOf(q.get("at"), doc.entries.length - 1)));
      case "problems":
        return json(res, 200, doc.problems());
      case "protocols":
        return json(res, 200, await doc.protocols());
      default:
        return json(res, 200, await doc.next());
    }
  };

  const upload = async (req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> => {
    // A form or a script on another page cannot reach here: the Origin check above, and a JSON-less body type.
    if (docs.size >= maxDocs && ![...docs.values()].some((d) => d.meta.live === true))
      return refuse(res, 429, `${maxDocs} streams are open; restart agjson inspect to open more`);
    const declared = Number(req.headers["content-length"]);
    const tooBig = `the upload is larger than the inspector's cap of ${maxUpload} bytes (agjson inspect --max-upload-bytes raises it; or open the file from the command line)`;
    if (Number.isFinite(declared) && declared > maxUpload) {
      res.setHeader("connection", "close");
      refuse(res, 413, tooBig);
      req.destroy();
      return;
    }
    const parts: Buffer[] = [];
    let size = 0;
    for await (const piece of req) {
      const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(String(piece));
      size += chunk.length;
      if (size > maxUpload) {
        res.setHeader("connection", "close");
        refuse(res, 413, tooBig);
        req.destroy();
        return;
      }
      parts.push(chunk);
    }
    const name = (q.get("name") ?? "upload").slice(0, 200);
    const from = q.get("from") ?? undefined;
    const loaded = await opts.load(Buffer.concat(parts), name, from === "" ? undefined : from);
    if (typeof loaded === "string") return refuse(res, 422, loaded);
    json(res, 200, add(loaded).summary());
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) refuse(res, 500, `the inspector failed on this request: ${err instanceof Error ? err.message : String(err)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the inspector is not listening on a TCP port");
  port = address.port;
  const shown = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  return {
    url: `http://${shown}:${port}/?token=${token}`,
    port,
    token,
    server,
    add,
    live: (meta) => add({ meta: { ...meta, live: true } }),
    changed,
    close: () =>
      new Promise<void>((resolve) => {
        if (pending !== undefined) clearTimeout(pending);
        for (const d of docs.values()) d.dispose();
        for (const res of listeners) res.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
