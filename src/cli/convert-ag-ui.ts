/**
 * The `ag-ui` target of `agjson convert`: AgEvents in, AG-UI 1.0 events out — one JSON object a line,
 * or SSE `data:` frames with `--sse` (docs/bridges/ag-ui.md). The bridge is imported only when this
 * target runs, since it loads the optional peer `@ag-ui/core`.
 */
import { type ConvertTarget, MissingPeerError } from "./convert-ui-message-stream.js";

export const agUiTarget: ConvertTarget = {
  name: "ag-ui",
  description: "AG-UI 1.0 events, NDJSON (SSE data: frames with --sse)",
  async create({ sse }) {
    let bridge: typeof import("../bridges/ag-ui/index.js");
    try {
      bridge = await import("../bridges/ag-ui/index.js");
    } catch (error) {
      throw new MissingPeerError(
        `--to ag-ui needs @ag-ui/core and zod (optional peer dependencies): npm install "@ag-ui/core@^1" zod (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const { createAgUiEncoder } = bridge;
    const encoder = createAgUiEncoder();
    const frame = (record: unknown): string => (sse ? `data: ${JSON.stringify(record)}\n\n` : `${JSON.stringify(record)}\n`);
    return {
      push: (event) => encoder.push(event).map(frame),
      end: () => encoder.flush().map(frame),
    };
  },
};
