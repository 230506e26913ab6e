/**
 * What one `node:http` server serves right now, for the global caps (`maxConnections`,
 * `maxBufferedBytes`, docs/gateway.md "Caps"): requests in progress and, per open response, the
 * bytes its stream holds (a partial frame) plus the output queued for its client. Summed only when a
 * request arrives, never per chunk. The gateway and the AG-UI endpoint (`agjson serve`) admit
 * requests through it, so both refuse a flood the same way: 503 with `Retry-After`.
 */
import type { ServerResponse } from "node:http";
import type { ServerCaps } from "./caps.js";

export class ServerLoad {
  active = 0;
  readonly streams = new Map<ServerResponse, { bufferedBytes: number } | null>();

  bufferedBytes(): number {
    let total = 0;
    for (const [res, stream] of this.streams) total += res.writableLength + (stream?.bufferedBytes ?? 0);
    return total;
  }

  /** Why a new request is over a global cap (`what` names the server), or null when it may be served. */
  overload(caps: Pick<ServerCaps, "maxConnections" | "maxBufferedBytes">, what: string): string | null {
    if (this.active >= caps.maxConnections) return `${what} is serving ${this.active} requests, its cap (maxConnections)`;
    if (this.bufferedBytes() >= caps.maxBufferedBytes)
      return `${what} holds ${caps.maxBufferedBytes} bytes or more for open streams, its cap (maxBufferedBytes)`;
    return null;
  }

  /** Counts `res` until it closes. */
  track(res: ServerResponse): void {
    this.active++;
    this.streams.set(res, null);
    res.once("close", () => {
      this.active--;
      this.streams.delete(res);
    });
  }
}
