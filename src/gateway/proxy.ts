/** `startProxy`: the gateway as a standalone HTTP server (what `agjson proxy` runs). */

import type { Server } from "node:http";
import { createDeadlineServer } from "./admission.js";
import { resolveCaps } from "./caps.js";
import type { GatewayOptions } from "./handler.js";
import { gatewayListener } from "./node-handler.js";

export interface ProxyOptions extends GatewayOptions {
  /** Port to listen on; default 8787, 0 picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1 (expose deliberately, e.g. "0.0.0.0"). */
  host?: string;
}

export interface RunningProxy {
  /** Base URL the proxy answers on (POST an AgInput to it). */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections and ends open ones. */
  close(): Promise<void>;
}

/** Where `startProxy` listens when its options say nothing. */
export const PROXY_DEFAULTS = { port: 8787, host: "127.0.0.1" } as const;

/** Starts a validating gateway server in front of `opts.upstream`. */
export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  const { port = PROXY_DEFAULTS.port, host = PROXY_DEFAULTS.host, ...gateway } = opts;
  const caps = resolveCaps(gateway.caps ?? {});
  // The header deadline is the server's (node answers 408 and closes); the body deadline is the
  // handler's own (408 problem), with the server's whole-request timer as the outer bound.
  const server = createDeadlineServer(caps, gatewayListener(gateway, host));
  return listen(server, port, host);
}

/**
 * Listens on `host:port` (0 picks a free port) and reports where: the standalone gateway and the
 * AG-UI endpoint (`startAgUiServer`) both start this way. `close()` stops accepting connections and
 * ends the open ones (a streaming response would otherwise hold the server open).
 */
export async function listen(server: Server, port: number, host: string): Promise<RunningProxy> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error(`the server is not listening on a TCP port (${String(address)})`);
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/`,
    port: address.port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
