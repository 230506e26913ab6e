// Vercel AI SDK 7 `streamText` full-stream parts (`result.fullStream`), over @ai-sdk/anthropic or
// @ai-sdk/openai pointed at the loopback replay. Options: see shared/vercel-ai-run.mjs.
import { finalOf, startRun } from "./shared/vercel-ai-run.mjs";

export default {
  name: "vercel-ai",
  providers: ["anthropic", "openai-responses"],
  async run(ctx) {
    const run = startRun(ctx);
    let parts = 0;
    try {
      for await (const part of run.result.fullStream) {
        ctx.emit(part);
        if (++parts === run.opts.abortAfterParts) run.abort.abort();
      }
    } catch (e) {
      return finalOf(run.result, e);
    }
    return finalOf(run.result);
  },
};
