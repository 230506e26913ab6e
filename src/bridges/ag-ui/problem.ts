/**
 * RFC 9457 problem details for a refused AG-UI request: the gateway's `Problem` shape (type, fixed
 * title, status, detail, `issues` with JSON Pointers into the posted RunAgentInput, the `limit`
 * exceeded), with titles that name what an AG-UI client sent.
 */
import type { Problem, ValidationIssue } from "../../gateway/index.js";

const PROBLEM_BASE = "https://silverprotocol.io/AgJSON/problems/ag-ui/";

/** The failures the AG-UI handler reports, with their HTTP status and fixed title. */
export const AG_UI_PROBLEM_TYPES = {
  "method-not-allowed": { status: 405, title: "Only POST is accepted" },
  "unsupported-media-type": { status: 415, title: "RunAgentInput must be sent as application/json" },
  "payload-too-large": { status: 413, title: "RunAgentInput exceeds a size cap" },
  "malformed-json": { status: 400, title: "RunAgentInput body is not valid UTF-8 JSON" },
  "too-deep": { status: 400, title: "RunAgentInput nests deeper than the depth cap" },
  "invalid-input": { status: 400, title: "RunAgentInput does not validate" },
  "unsupported-version": { status: 400, title: "RunAgentInput protocolVersion is not supported" },
  "not-found": { status: 404, title: "Nothing is served at this path" },
  "request-timeout": { status: 408, title: "The RunAgentInput did not arrive in time" },
  "thread-busy": { status: 409, title: "The thread already has a run streaming" },
  "nothing-paused": { status: 409, title: "The thread has no paused run to resume" },
  "unsupported-input": { status: 422, title: "The agent cannot take this input" },
  overloaded: { status: 503, title: "The AG-UI endpoint is at a capacity cap" },
  // The status is the agent host's own 4xx (the gateway's upstreamRefusal); 400 stands for any of them.
  "upstream-refused": { status: 400, title: "The agent behind the AG-UI endpoint refused the request" },
  "upstream-error": { status: 502, title: "The agent behind the AG-UI endpoint failed" },
  "bridge-error": { status: 500, title: "The AG-UI endpoint failed while handling the request" },
} as const;

export type AgUiProblemType = keyof typeof AG_UI_PROBLEM_TYPES;

/** Most issues listed in one problem body. */
const MAX_ISSUES = 100;

/** The problem body for `kind`. */
export function agUiProblem(
  kind: AgUiProblemType,
  detail: string,
  extra: { issues?: ValidationIssue[]; limit?: { name: string; value: number }; status?: number } = {},
): Problem {
  const { status, title } = AG_UI_PROBLEM_TYPES[kind];
  const problem: Problem = { type: PROBLEM_BASE + kind, title, status: extra.status ?? status, detail };
  if (extra.issues !== undefined) {
    problem.issues = extra.issues.slice(0, MAX_ISSUES);
    if (extra.issues.length > MAX_ISSUES) problem.issueCount = extra.issues.length;
  }
  if (extra.limit !== undefined) problem.limit = extra.limit;
  return problem;
}

/** A problem as an `application/problem+json` Response. */
export function agUiProblemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...headers },
  });
}
