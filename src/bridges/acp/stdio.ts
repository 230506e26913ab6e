/** Serving the ACP agent on this process's stdin/stdout (newline-delimited JSON-RPC, ACP v1 transport). */
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createAcpAgent, type AcpAgentOptions } from "./agent.js";

/** Runs the agent over stdio until the client closes its end (stdin ends). */
export async function serveAcpStdio(options: AcpAgentOptions): Promise<void> {
  let open = true; // the connection cancels its reader when it closes; later bytes have nowhere to go
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      process.stdin.on("data", (chunk: Buffer) => open && controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
      process.stdin.on("end", () => open && ((open = false), controller.close()));
      process.stdin.on("error", (err) => open && ((open = false), controller.error(err)));
    },
    cancel() {
      open = false;
      process.stdin.pause();
    },
  });
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve, reject) => void process.stdout.write(chunk, (err) => (err ? reject(err) : resolve()))),
  });
  const connection = createAcpAgent(options).connect(ndJsonStream(output, input));
  await connection.closed;
}
