/**
 * What one `node:http` server serves right now, for the global caps (`maxConnections`,
 * `maxBufferedBytes`, docs/gateway.md "Caps"): requests in progress and, per open response, the
 * bytes its stream holds (a partial frame) plus the output queued for its client. Summed only when a
 * request arrives, never per chunk. The gateway and the AG-UI endpoint (`agjson serve`) admit
 * requests through it, so both refuse a flood the same way: 503 with `Retry-After`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
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

/**
 * A `node:http` server that keeps the request deadlines on time: `headerTimeoutMs` (node answers 408
 * and closes) and, as the outer bound of the handler's own 408, `headerTimeoutMs + bodyTimeoutMs`.
 * Node checks both on a timer that runs every 30 s by default, so a shorter deadline would be kept up
 * to 30 s late (a slow-loris client holds its slot that long): the check runs at least as often as
 * the shorter deadline. `agjson proxy` (`startProxy`) and `agjson serve` (`startAgUiServer`) both
 * start their server here. No deadline limits a response: a stream runs until its own caps end it.
 */
export function createDeadlineServer(
  caps: Pick<ServerCaps, "headerTimeoutMs" | "bodyTimeoutMs">,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const connectionsCheckingInterval = Math.max(100, Math.min(30_000, caps.headerTimeoutMs, caps.bodyTimeoutMs));
  const server = createServer({ connectionsCheckingInterval }, listener);
  server.headersTimeout = caps.headerTimeoutMs;
  server.requestTimeout = caps.headerTimeoutMs + caps.bodyTimeoutMs;
  return server;
}
