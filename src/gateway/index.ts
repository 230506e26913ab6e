/**
 * The validating gateway (spec §0.2, §12, §13): framers, the validating event stream, the
 * AgInput request check, HTTP handlers and the standalone proxy.
 */

export { DEFAULT_CAPS, HARD_CAPS, resolveCaps, type GatewayCaps, type InputCaps, type StreamCaps } from "./caps.js";
export type {
  EventFrame,
  Frame,
  FrameCallback,
  FrameSink,
  Framer,
  FramerOptions,
  OversizedFrame,
  PassthroughFrame,
} from "../wire/frame.js";
export { SseFramer, parseSseFrame } from "../wire/sse-framer.js";
export { NdjsonFramer, parseNdjsonLine } from "../wire/ndjson-framer.js";
export { AutoFramer, createFramer } from "../wire/auto-framer.js";
export { DepthGuard, exceedsJsonDepth } from "../wire/json-depth.js";
export {
  GATEWAY_META_KEY,
  gatewayCode,
  type GatewayEventDetails,
  type GatewayReason,
  type StreamFormat,
} from "./gateway-events.js";
export { EventValidationCore, type EventOutput, type EventValidationMonitor } from "./event-validation-core.js";
export {
  EventValidationStream,
  createEventValidationStream,
  pipeUpstream,
  type EventValidationOptions,
  type EventValidationStats,
  type GatewayReport,
  type InvalidPolicy,
  INVALID_POLICIES,
} from "./event-validation-stream.js";
export { validateInputRequest, type InputRequestOptions, type InputRequestResult } from "./input-request.js";
export { PROBLEM_TYPES, buildProblem, problemResponse, type Problem, type ProblemType } from "./problem.js";
export { GATEWAY_DEFAULTS, createFetchGatewayHandler, type FetchGatewayHandler, type GatewayOptions } from "./handler.js";
export { createGatewayHandler, requestBody, writeNodeResponse } from "./node-handler.js";
export {
  createRequestGuard,
  guardedNodeRequest,
  refuseNodeRequest,
  refuseRequest,
  type GuardedRequest,
  type GuardRefusal,
  type RequestGuard,
  type RequestGuardOptions,
} from "./request-guard.js";
export { corsResponseHeaders, normalizeOrigin, originAllowed } from "./origin.js";
export { PROXY_DEFAULTS, listen, startProxy, type ProxyOptions, type RunningProxy } from "./proxy.js";
export { ServerLoad, createDeadlineServer } from "./admission.js";
export {
  loadDefaultValidator,
  type GatewayValidator,
  type Posture,
  type ValidationIssue,
  type ValidationResult,
  type VersionResult,
} from "./validator.js";
