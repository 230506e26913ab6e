// Vercel AI SDK 7 UI message stream: the chunks `toUIMessageStream()` hands a route handler (merged
// into `createUIMessageStream` with the scenario's data parts). Options: see shared/vercel-ai-run.mjs.
import { finalOf, startRun, uiStreamOf } from "./shared/vercel-ai-run.mjs";

export default {
  name: "vercel-ai-ui",
  providers: ["anthropic", "openai-responses"],
  async run(ctx) {
    const run = startRun(ctx);
    let parts = 0;
    try {
      for await (const chunk of uiStreamOf(run)) {
        ctx.emit(chunk);
        if (++parts === run.opts.abortAfterParts) run.abort.abort();
      }
    } catch (e) {
      return finalOf(run.result, e);
    }
    return finalOf(run.result);
  },
};
