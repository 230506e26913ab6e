/**
 * RFC 9457 problem details for refused requests. Every problem carries a `type` URI naming the
 * failure, a `title` that never varies for that type, a `detail` saying what to do, and — for
 * validation failures — the `issues` list in the same shape as `validateInput` reports it.
 */

import type { ValidationIssue } from "./validator.js";

const PROBLEM_BASE = "https://silverprotocol.io/AgJSON/problems/";

/** The failures the gateway reports as problems, with their HTTP status and fixed title. */
export const PROBLEM_TYPES = {
  "unsupported-media-type": { status: 415, title: "AgInput must be sent as application/json" },
  "payload-too-large": { status: 413, title: "AgInput body exceeds the size cap" },
  "malformed-json": { status: 400, title: "AgInput body is not valid UTF-8 JSON" },
  "too-deep": { status: 400, title: "AgInput body nests deeper than the depth cap" },
  "unsupported-version": { status: 400, title: "AgInput version is not supported" },
  "invalid-input": { status: 400, title: "AgInput does not validate" },
  "method-not-allowed": { status: 405, title: "Only POST is accepted" },
  "bad-request": { status: 400, title: "The HTTP request is malformed" },
  unauthorized: { status: 401, title: "The request needs this server's bearer token" },
  "forbidden-host": { status: 403, title: "The Host header names a host this server does not answer for" },
  "forbidden-origin": { status: 403, title: "The request comes from a browser origin this server does not allow" },
  "request-timeout": { status: 408, title: "The request body did not arrive in time" },
  overloaded: { status: 503, title: "The gateway is at its capacity" },
  // The status is the upstream's own 4xx (upstream-refusal.ts); 400 stands for any of them.
  "upstream-refused": { status: 400, title: "The upstream agent host refused the request" },
  "gateway-error": { status: 500, title: "The gateway failed while handling the request" },
} as const;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/** The RFC 9457 body (`type`, `title`, `status`, `detail`) plus agjson extension members. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Validation issues, JSON Pointer paths into the posted AgInput (bounded to MAX_PROBLEM_ISSUES). */
  issues?: ValidationIssue[];
  /** Total issue count when `issues` was truncated. */
  issueCount?: number;
  /** The cap that was exceeded. */
  limit?: { name: string; value: number };
}

/** Most issues listed in one problem body. */
export const MAX_PROBLEM_ISSUES = 100;

/** Builds the problem body for `kind`. */
export function buildProblem(kind: ProblemType, detail: string, extra: Partial<Problem> = {}): Problem {
  const { status, title } = PROBLEM_TYPES[kind];
  const problem: Problem = { type: PROBLEM_BASE + kind, title, status, detail, ...extra };
  if (problem.issues && problem.issues.length > MAX_PROBLEM_ISSUES) {
    problem.issueCount = problem.issues.length;
    problem.issues = problem.issues.slice(0, MAX_PROBLEM_ISSUES);
  }
  return problem;
}

/** Wraps a problem in an `application/problem+json` Response. */
export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...headers },
  });
}
