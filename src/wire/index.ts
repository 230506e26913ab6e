/**
 * The wire module: byte-level framing of AgJSON streams and files, shared by the CLI, the gateway
 * and the normalizers. Server-Sent Events per the WHATWG algorithm (CR, LF and CRLF line ends,
 * multi-line `data:` joined by LF, comments, a leading BOM, `event:`/`id:`/`retry:`), NDJSON, and
 * JSON documents (a top-level array cut into its elements). Framers never decode JSON and never
 * recurse; each holds at most one frame (`maxFrameBytes`) however long the input.
 */
export type { EventFrame, Frame, FrameCallback, FrameSink, Framer, FramerOptions, OversizedFrame, PassthroughFrame } from "./frame.js";
export { SseFramer, parseSseFrame } from "./sse-framer.js";
export { NdjsonFramer, parseNdjsonLine } from "./ndjson-framer.js";
export { JsonDocumentFramer } from "./json-framer.js";
export { AutoFramer, createFramer, type StreamFormat } from "./auto-framer.js";
export { InputFramer, sniffInputFormat, INPUT_FORMATS, INPUT_FORMATS_TEXT, type DetectedFormat, type InputFormat } from "./input-framer.js";
export { DepthGuard, exceedsJsonDepth } from "./json-depth.js";
export { decodeUtf8Strict, firstInvalidUtf8 } from "./utf8.js";
export {
  JsonNumberText,
  countNumberTexts,
  dropNumberTexts,
  hasInexactNumber,
  hasExactTwins,
  isInexactNumber,
  parseExactNumbers,
  parseKeepingExact,
  stringifyExact,
} from "./exact-numbers.js";
