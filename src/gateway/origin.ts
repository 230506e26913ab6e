/**
 * One rule for comparing browser origins, shared by every agjson server's request guard (the Origin
 * check) and its CORS response headers, so an origin the guard lets in is the one the headers name.
 * No Node built-ins: the fetch-style handlers use it too.
 */

/**
 * An origin as a browser serializes it in `Origin` (RFC 6454 §6.2, the URL standard): scheme and
 * host lower-cased (RFC 3986 §3.1, §3.2.2 make both case-insensitive), the scheme's default port
 * dropped, no path. A value that is no URL (the opaque origin `null`) is only lower-cased. The gate's
 * Origin check and the CORS response headers both compare origins through it, so an origin the gate
 * lets in is also the one the CORS headers name.
 */
export function normalizeOrigin(origin: string): string {
  const trimmed = origin.trim();
  try {
    const url = new URL(trimmed);
    if (url.origin !== "null") return url.origin;
  } catch {
    // Not a URL: compared as text, without case.
  }
  return trimmed.toLowerCase();
}

/** Whether a request's `Origin` is the one `allowed` names (`*`: any); both sides normalized. */
export function originAllowed(allowed: string | undefined, origin: string | null | undefined): boolean {
  if (allowed === undefined || origin === null || origin === undefined) return false;
  return allowed === "*" || normalizeOrigin(origin) === normalizeOrigin(allowed);
}

/**
 * The CORS response headers for a request from `origin` when a server allows `allowed` (its `cors`
 * option; Fetch standard §3.2): `*` allows any; otherwise the request's own Origin is named back
 * (a browser compares it byte for byte with what it sent) when it is the allowed one, and nothing
 * else is. `Vary: Origin` since the answer depends on it.
 */
export function corsResponseHeaders(allowed: string | undefined, origin: string | null | undefined): Record<string, string> {
  if (allowed === undefined) return {};
  if (allowed === "*") return { "access-control-allow-origin": "*" };
  return originAllowed(allowed, origin) ? { "access-control-allow-origin": origin!, vary: "origin" } : { vary: "origin" };
}
