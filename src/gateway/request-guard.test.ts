// The request guard's rules on their own (request-guard.ts): which Host names, origins and
// credentials pass, and what a refusal says. The servers that run it are tested in
// test/reliability/loopback-guard.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { corsResponseHeaders, normalizeOrigin, originAllowed } from "./origin.js";
import { createRequestGuard, refuseRequest, type GuardedRequest } from "./request-guard.js";

const post = (extra: Partial<GuardedRequest>): GuardedRequest => ({ method: "POST", ...extra });

describe("createRequestGuard: Host (DNS rebinding)", () => {
  const guard = createRequestGuard({ host: "127.0.0.1" });

  it("answers localhost, *.localhost and IP literals, with or without port, whatever the case", () => {
    for (const host of [
      "localhost",
      "localhost:8787",
      "LocalHost",
      "localhost.",
      "app.localhost:3000",
      "a.b.localhost",
      "127.0.0.1",
      "127.0.0.1:8787",
      "10.1.2.3:80",
      "[::1]",
      "[::1]:8787",
      "[::ffff:127.0.0.1]:1",
      "::1",
      "[fe80::1]",
    ]) {
      expect(guard.check(post({ host })), host).toBeNull();
    }
  });

  it("refuses any other name 403 with a problem naming --allowed-host and the name to give it", () => {
    for (const host of [
      "evil.example",
      "evil.example:8787",
      "localhost.evil.example",
      "evillocalhost",
      "127.0.0.1.nip.io",
      "999.1.1.1",
      "1.2.3",
    ]) {
      const refused = guard.check(post({ host }));
      expect(refused?.problem.status, host).toBe(403);
      expect(refused?.problem.type).toMatch(/\/forbidden-host$/);
      expect(refused?.problem.detail).toContain(`--allowed-host ${host.split(":")[0]}`);
      expect(refused?.problem.detail).toContain("allowedHosts");
    }
  });

  it("answers the bound name and allowedHosts; a leading dot covers subdomains; * turns the check off", () => {
    const named = createRequestGuard({ host: "devbox", allowedHosts: ["agent.example.com", ".corp.example"] });
    for (const host of ["devbox:8787", "agent.example.com", "AGENT.example.com:443", "corp.example", "a.corp.example"])
      expect(named.check(post({ host })), host).toBeNull();
    for (const host of ["example.com", "x.agent.example.com", "corp.example.evil"])
      expect(named.check(post({ host })), host).not.toBeNull();
    expect(createRequestGuard({ allowedHosts: ["*"] }).check(post({ host: "evil.example" }))).toBeNull();
  });

  it("refuses an allowedHosts entry that is no host name when it is built", () => {
    for (const entry of ["http://a.example", "a.example/x", "a.example:8787", "a b", "", ".", ".."])
      expect(() => createRequestGuard({ allowedHosts: [entry] }), entry).toThrow(/allowedHosts: .* is not a host name/);
    // A bound interface no Host can name (scoped IPv6) adds nothing and throws nothing.
    expect(createRequestGuard({ host: "fe80::1%eth0" }).check(post({ host: "evil.example" }))?.problem.status).toBe(403);
  });

  it("lets a request without Host through (no browser sends one)", () => {
    expect(guard.check(post({}))).toBeNull();
  });
});

describe("one origin rule (origin.ts), for the gate and the CORS headers", () => {
  it("compares scheme and host without case and the default port as implied (RFC 6454 §6.2, RFC 3986 §3.1, §3.2.2)", () => {
    expect(normalizeOrigin("HTTPS://App.Example:443")).toBe("https://app.example");
    expect(normalizeOrigin("http://LOCALHOST:80/")).toBe("http://localhost");
    expect(normalizeOrigin("http://localhost:8080")).toBe("http://localhost:8080");
    expect(normalizeOrigin("null")).toBe("null");
    expect(originAllowed("https://App.Example", "https://app.example")).toBe(true);
    expect(originAllowed("https://app.example", "http://app.example")).toBe(false);
    expect(originAllowed("https://app.example", "https://app.example:8443")).toBe(false);
    expect(originAllowed("https://app.example", undefined)).toBe(false);
    expect(originAllowed("*", "https://any.example")).toBe(true);
  });

  it("names back the request's own Origin when it is the allowed one, and nothing else", () => {
    expect(corsResponseHeaders("https://App.Example", "https://app.example")).toEqual({
      "access-control-allow-origin": "https://app.example",
      vary: "origin",
    });
    expect(corsResponseHeaders("https://app.example", "https://evil.example")).toEqual({ vary: "origin" });
    expect(corsResponseHeaders("*", "https://evil.example")).toEqual({ "access-control-allow-origin": "*" });
    expect(corsResponseHeaders(undefined, "https://app.example")).toEqual({});
  });

  it("the gate lets in exactly the origins the CORS headers name", () => {
    for (const [cors, origin] of [
      ["HTTPS://App.Example:443", "https://app.example"],
      ["https://app.example", "https://APP.EXAMPLE"],
      ["https://app.example", "https://app.example:8443"],
      ["https://app.example", "https://evil.example"],
    ] as const) {
      const passes = createRequestGuard({ cors }).check(post({ host: "localhost:8787", origin })) === null;
      expect(passes, `${cors} / ${origin}`).toBe("access-control-allow-origin" in corsResponseHeaders(cors, origin));
    }
  });
});

describe("createRequestGuard: Origin", () => {
  it("serves the server's own origin and the cors origin; refuses any other, preflight or not", () => {
    const guard = createRequestGuard({ cors: "https://app.example" });
    expect(guard.check(post({ host: "127.0.0.1:8787", origin: "http://127.0.0.1:8787" }))).toBeNull();
    expect(guard.check(post({ host: "localhost:8787", origin: "https://app.example" }))).toBeNull();
    expect(guard.check(post({ host: "localhost:8787", origin: "HTTPS://APP.example" }))).toBeNull();
    for (const origin of ["https://evil.example", "http://localhost:9999", "null", "https://app.example.evil"]) {
      const refused = guard.check(post({ host: "localhost:8787", origin }));
      expect(refused?.problem.status, origin).toBe(403);
      expect(refused?.problem.type).toMatch(/\/forbidden-origin$/);
      expect(refused?.problem.detail).toContain(`--cors ${origin}`);
      expect(guard.check({ method: "OPTIONS", host: "localhost:8787", origin, preflightMethod: "POST" })?.problem.status).toBe(403);
    }
    expect(createRequestGuard({}).check(post({ host: "localhost", origin: "https://app.example" }))?.problem.status).toBe(403);
    expect(createRequestGuard({ cors: "*" }).check(post({ host: "localhost", origin: "https://any.example" }))).toBeNull();
  });
});

describe("createRequestGuard: bearer token", () => {
  const guard = createRequestGuard({ token: "s3cret-token", cors: "https://app.example" });

  it("needs Authorization: Bearer <token> (scheme in any case); a missing or wrong one is 401 with WWW-Authenticate", () => {
    expect(guard.check(post({ host: "localhost", authorization: "Bearer s3cret-token" }))).toBeNull();
    expect(guard.check(post({ host: "localhost", authorization: "bearer s3cret-token" }))).toBeNull();
    const missing = guard.check(post({ host: "localhost" }));
    expect(missing?.problem.status).toBe(401);
    expect(missing?.headers["www-authenticate"]).toBe('Bearer realm="agjson"');
    expect(missing?.problem.detail).toContain("--token-file");
    for (const authorization of [
      "Bearer s3cret-toke",
      "Bearer s3cret-token2",
      "Basic czNjcmV0LXRva2Vu",
      "s3cret-token",
      "Bearer ",
      "Bearer s3cret-token x",
    ]) {
      const refused = guard.check(post({ host: "localhost", authorization }));
      expect(refused?.problem.status, authorization).toBe(401);
    }
    expect(guard.check(post({ host: "localhost", authorization: "Bearer wrong" }))?.headers["www-authenticate"]).toContain(
      'error="invalid_token"',
    );
  });

  it("lets the cors origin's preflight through without it (browsers send none), and lets its script read a 401", () => {
    expect(guard.check({ method: "OPTIONS", host: "localhost", origin: "https://app.example", preflightMethod: "POST" })).toBeNull();
    expect(guard.check({ method: "OPTIONS", host: "localhost" })?.problem.status).toBe(401);
    expect(guard.check(post({ host: "localhost", origin: "https://app.example" }))?.headers["access-control-allow-origin"]).toBe(
      "https://app.example",
    );
  });

  it("refuses a token that is not visible ASCII when it is built", () => {
    for (const token of ["", "two words", "line\n", "é"])
      expect(() => createRequestGuard({ token }), JSON.stringify(token)).toThrow(/token: /);
  });
});

describe("refuseRequest (fetch-style handlers)", () => {
  it("reads Host from the header or the URL and answers the refusal as a problem Response", async () => {
    const guard = createRequestGuard({});
    expect(refuseRequest(guard, new Request("http://localhost:8787/", { method: "POST" }))).toBeNull();
    const refused = refuseRequest(guard, new Request("http://evil.example:8787/", { method: "POST" }));
    expect(refused?.status).toBe(403);
    expect(refused?.headers.get("content-type")).toBe("application/problem+json");
    expect(((await refused!.json()) as { detail: string }).detail).toContain("--allowed-host evil.example");
  });
});

describe("createRequestGuard on any header values", () => {
  const guard = createRequestGuard({ cors: "https://app.example", token: "tok" });
  const header = fc.option(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 })), { nil: undefined });

  it("never throws: every answer is null or a 401/403 problem", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("POST", "OPTIONS", "GET"),
        header,
        header,
        header,
        header,
        (method, host, origin, authorization, preflightMethod) => {
          const r = guard.check({ method, host, origin, authorization, preflightMethod });
          if (r !== null) expect([401, 403]).toContain(r.problem.status);
          else expect(r).toBeNull();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("refuses every DNS name outside localhost, and answers every IPv4 address, with any port", () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
    const port = fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined });
    const withPort = (name: string, p: number | undefined) => (p === undefined ? name : `${name}:${p}`);
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 3 }), label, port, (labels, tld, p) => {
        fc.pre(tld !== "localhost");
        expect(
          guard.check({ method: "POST", host: withPort([...labels, tld].join("."), p), authorization: "Bearer tok" })?.problem.status,
        ).toBe(403);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.ipV4(), port, (ip, p) => {
        expect(guard.check({ method: "POST", host: withPort(ip, p), authorization: "Bearer tok" })).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });
});
