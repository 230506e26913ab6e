/**
 * Validation of a POSTed AgInput at the gateway's front door: media type, size cap before parsing,
 * depth cap before parsing, UTF-8 JSON, version negotiation (§12), then the posture check (§0.2).
 */

import { resolveCaps, type InputCaps } from "./caps.js";
import { exceedsJsonDepth } from "../wire/json-depth.js";
import { buildProblem, problemResponse, type Problem, type ProblemType } from "./problem.js";
import { loadDefaultValidator, type GatewayValidator, type Posture } from "./validator.js";
import { isRecord } from "../json-guards.js";

export interface InputRequestOptions {
  /** `lenient` (default): accept same-major additions (§12); `strict`: exactly this spec version's schema. */
  posture?: Posture;
  /** Caps over the defaults of `DEFAULT_CAPS` (only `maxInputBytes` and `maxInputDepth` apply). */
  caps?: Partial<InputCaps>;
  /** Validator for inputs and versions; defaults to `src/validate`. */
  validator?: Pick<GatewayValidator, "validateInput" | "negotiateVersion">;
}

export type InputRequestResult =
  | {
      ok: true;
      /** The parsed AgInput (validated). */
      input: Record<string, unknown>;
      /** The body exactly as received, to forward byte-identical (§13.2: echoed blobs stay intact). */
      body: Uint8Array<ArrayBuffer>;
      /** The request's content type, to forward unchanged. */
      contentType: string;
    }
  | { ok: false; status: number; problem: Problem; response: Response };

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

function fail(kind: ProblemType, detail: string, extra: Partial<Problem> = {}, headers: Record<string, string> = {}): InputRequestResult {
  const problem = buildProblem(kind, detail, extra);
  return { ok: false, status: problem.status, problem, response: problemResponse(problem, headers) };
}

function checkMediaType(contentType: string | null): string | null {
  if (contentType === null) return "the request has no Content-Type; send the AgInput as application/json";
  const [essence = "", ...params] = contentType.split(";");
  const type = essence.trim().toLowerCase();
  if (!JSON_MEDIA_TYPE.test(type)) return `Content-Type "${type}" is not JSON; send the AgInput as application/json`;
  for (const param of params) {
    const [name = "", value = ""] = param.split("=");
    if (name.trim().toLowerCase() === "charset" && !/^"?utf-8"?$/i.test(value.trim())) {
      return `charset "${value.trim()}" is not supported; AgJSON is UTF-8 JSON`;
    }
  }
  return null;
}

/** Reads at most `limit` bytes; returns null (and cancels the body) as soon as it would exceed it. */
async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel("AgInput body exceeds the size cap").catch(() => {});
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Validates the AgInput carried by `request`. On success returns the parsed input and its exact
 * bytes; on failure an `application/problem+json` Response: 415 (media type), 413 (size, checked
 * against Content-Length and while reading, before any parsing), 400 (JSON, depth, version, schema).
 */
export async function validateInputRequest(request: Request, opts: InputRequestOptions = {}): Promise<InputRequestResult> {
  const caps = resolveCaps(opts.caps ?? {});
  const posture = opts.posture ?? "lenient";
  const contentType = request.headers.get("content-type");
  const mediaProblem = checkMediaType(contentType);
  if (mediaProblem !== null) {
    await request.body?.cancel().catch(() => {});
    return fail("unsupported-media-type", mediaProblem, {}, { "accept-post": "application/json" });
  }
  const coding = request.headers.get("content-encoding");
  if (coding !== null && coding.trim().toLowerCase() !== "identity") {
    await request.body?.cancel().catch(() => {});
    // RFC 9110 §8.4.1: an unsupported content coding is answered with 415.
    return fail(
      "unsupported-media-type",
      `Content-Encoding "${coding}" is not supported; send the AgInput uncompressed`,
      {},
      { "accept-encoding": "identity" },
    );
  }
  const limit = { name: "maxInputBytes", value: caps.maxInputBytes };
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > caps.maxInputBytes) {
    await request.body?.cancel().catch(() => {});
    return fail("payload-too-large", `Content-Length ${declared} exceeds the cap of ${caps.maxInputBytes} bytes`, { limit });
  }
  let body: Uint8Array<ArrayBuffer> | null;
  try {
    body = await readCapped(request.body, caps.maxInputBytes);
  } catch (error) {
    return fail("malformed-json", `the request body could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (body === null) {
    return fail("payload-too-large", `the body exceeds the cap of ${caps.maxInputBytes} bytes`, { limit });
  }
  if (exceedsJsonDepth(body, caps.maxInputDepth)) {
    return fail("too-deep", `the body nests deeper than ${caps.maxInputDepth} levels`, {
      limit: { name: "maxInputDepth", value: caps.maxInputDepth },
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(body));
  } catch (error) {
    return fail("malformed-json", `the body is not UTF-8 JSON text: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(value)) {
    return fail("invalid-input", "an AgInput is a JSON object", {
      issues: [{ path: "", keyword: "type", message: "must be object" }],
    });
  }
  const input = value as Record<string, unknown>;
  const validator = opts.validator ?? (await loadDefaultValidator());
  if (typeof input.version === "string") {
    const negotiated = validator.negotiateVersion(input.version);
    if (!negotiated.ok) {
      return fail("unsupported-version", negotiated.message, {
        issues: [{ path: "/version", keyword: "version", message: negotiated.message, spec: "§12" }],
      });
    }
  }
  // Parsed here from depth-capped text: a JSON value, so the walk that guards a hand-made object is
  // not run; it would refuse the Infinity that `1e400` in an opaque slot parses to, and the body is
  // forwarded byte-identical whatever its numbers (RFC 8259 §6, §13.2).
  const result = validator.validateInput(input, { posture, parsed: true });
  if (!result.ok) {
    const first = result.errors[0];
    const where = first ? `: ${first.path || "/"} ${first.message}` : "";
    return fail("invalid-input", `the AgInput fails ${posture} validation with ${result.errors.length} issue(s)${where}`, {
      issues: result.errors.map((e) => ({
        path: e.path,
        message: e.message,
        keyword: e.keyword,
        ...(e.spec === undefined ? {} : { spec: e.spec }),
      })),
    });
  }
  return { ok: true, input, body, contentType: contentType ?? "application/json" };
}
