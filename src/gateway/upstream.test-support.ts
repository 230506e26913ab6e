/**
 * A loopback (127.0.0.1) agjson upstream for the server tests (the proxy's, serve's): every request is
 * read to its end and then answered by the test's handler. It lives in the lowest layer whose tests
 * use it, so the bridges' tests above may import it too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackUpstream {
  /** The agent endpoint: `http://127.0.0.1:<port>/agent`. */
  url: string;
  /** How many responses have had their connection closed so far. */
  closed(): number;
  /** Stops it, dropping open connections. */
  close(): Promise<void>;
}

/** Starts a loopback upstream answering every request with `handler`. */
export async function startLoopbackUpstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoopbackUpstream> {
  let closed = 0;
  const server = createServer((req, res) => {
    res.once("close", () => closed++);
    req.resume();
    req.once("end", () => handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    closed: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
