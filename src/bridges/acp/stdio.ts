/** Serving the ACP agent on this process's stdin/stdout (newline-delimited JSON-RPC, ACP v1 transport). */
import type { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { requestBody } from "../../gateway/index.js";
import { createAcpAgent, type AcpAgentOptions } from "./agent.js";

/** The byte streams the agent speaks over (default: this process's stdin and stdout). */
export interface AcpStdio {
  stdin: Readable;
  stdout: Writable;
}

/** How the connection ended: the client closed its end, or the connection failed (`error` says why). */
export interface AcpStdioEnd {
  error?: Error;
}

/**
 * Runs the agent over stdio until the client closes its end (stdin ends) or the connection fails
 * (a line over the SDK's message cap, a broken pipe). Either way every running prompt is ended —
 * its source aborted — before this resolves: an agent never outlives its editor. stdin is read with
 * backpressure (the gateway's `requestBody`: paused while the reader is behind).
 */
export async function serveAcpStdio(
  options: AcpAgentOptions,
  io: AcpStdio = { stdin: process.stdin, stdout: process.stdout },
): Promise<AcpStdioEnd> {
  let ended = false;
  io.stdin.once("end", () => (ended = true));
  const input = requestBody(io.stdin);
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve, reject) => void io.stdout.write(chunk, (err) => (err ? reject(err) : resolve()))),
  });
  const connection = createAcpAgent(options).connect(ndJsonStream(output, input));
  await connection.closed;
  const reason: unknown = connection.signal.reason;
  if (reason instanceof Error && (reason.name === "MessageTooLargeError" || !ended)) return { error: reason };
  return {};
}
