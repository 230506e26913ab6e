/**
 * `--inspect` on `agjson proxy` and `agjson serve --agui`: an inspector beside the server, and a tap
 * that shows every stream through it in the page as it flows (docs/inspect.md "Live streams"). The
 * proxy's tap is its upstream `fetch` (the upstream's AgEvents, before the gateway judges them, so
 * an event the gateway drops is still seen with its issues); the AG-UI server's is its event source.
 */
import type { AgEventSource } from "../bridges/source/index.js";
import type { RunningInspector } from "../inspect/server.js";
import { recordOfText } from "../inspect/analyze.js";
import { readRecords } from "./records.js";

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

export interface LiveTap {
  inspector: RunningInspector;
  /** A `fetch` whose every response body is also read into a new live stream of the page. */
  fetch(base: typeof fetch): typeof fetch;
  /** An event source whose every run is also a live stream of the page. */
  source(base: AgEventSource): AgEventSource;
}

/** Starts the inspector for a server's `--inspect`; logs its URL with `log`. */
export async function startLiveTap(host: string, log: (line: string) => void, open = false): Promise<LiveTap> {
  const { openBrowser, startInspectorFor } = await import("./inspect-command.js");
  const inspector = await startInspectorFor(host, 0);
  log(`inspector on ${inspector.url}`);
  if (open) openBrowser(inspector.url);
  let runs = 0;
  return {
    inspector,
    fetch: (base) => async (input, init) => {
      const res = await base(input, init);
      if (res.body === null) return res;
      const [mine, theirs] = res.body.tee();
      const url = input instanceof Request ? input.url : String(input);
      const doc = inspector.live({ name: `stream ${++runs}`, source: `live: ${init?.method ?? "POST"} ${url} (HTTP ${res.status})` });
      void (async () => {
        try {
          for await (const batch of readRecords(chunksOf(mine), { format: "auto", maxRecordBytes: 16 << 20 })) {
            doc.append(batch.map((r) => ("error" in r ? { error: r.error } : recordOfText(r.text))));
            inspector.changed();
          }
        } catch (err) {
          doc.append([{ error: `the inspector stopped reading this stream: ${err instanceof Error ? err.message : String(err)}` }]);
          inspector.changed();
        }
      })();
      return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
    source: (base) => ({
      async *run(input, signal) {
        const doc = inspector.live({ name: `run ${++runs}`, source: `live: AG-UI run ${input.turnId} on thread ${input.threadId}` });
        for await (const event of base.run(input, signal)) {
          doc.append([{ value: event }]);
          inspector.changed();
          yield event;
        }
      },
    }),
  };
}
