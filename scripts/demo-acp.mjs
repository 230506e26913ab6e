#!/usr/bin/env node
// `make demo`'s ACP leg: the Agent Client Protocol SDK's own client (what an editor such as Zed
// runs) drives `agjson acp --replay FILE` over stdio — initialize, session/new, one prompt — and
// prints each session/update the agent sends, one JSON line each, then the prompt's stop reason.
// The SDK is a devDependency (docs/bridges/acp.md); this script is not part of the package.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";

const recording = process.argv[2];
if (!recording) {
  process.stderr.write("usage: node scripts/demo-acp.mjs <recorded AgEvent stream>\n");
  process.exit(2);
}
const root = fileURLToPath(new URL("../", import.meta.url));
const agent = spawn(process.execPath, [`${root}bin/agjson.js`, "acp", "--replay", recording], { stdio: ["pipe", "pipe", "inherit"] });
const readable = new ReadableStream({
  start(controller) {
    agent.stdout.on("data", (c) => controller.enqueue(new Uint8Array(c.buffer, c.byteOffset, c.byteLength)));
    agent.stdout.on("end", () => controller.close());
  },
});
const writable = new WritableStream({
  write: (chunk) => new Promise((resolve, reject) => agent.stdin.write(chunk, (e) => (e ? reject(e) : resolve()))),
});

let exit = 0;
try {
  await client({ name: "agjson-demo" })
    .onNotification(methods.client.session.update, ({ params }) => void process.stdout.write(`${JSON.stringify(params.update)}\n`))
    .connectWith(ndJsonStream(writable, readable), async (ctx) => {
      await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: root, mcpServers: [] });
      const { stopReason } = await ctx.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "What is the weather in Paris?" }],
      });
      process.stdout.write(`stopReason: ${stopReason}\n`);
    });
} catch (error) {
  process.stderr.write(`demo-acp: ${error instanceof Error ? error.message : String(error)}\n`);
  exit = 1;
} finally {
  agent.stdin.end();
  agent.kill();
}
process.exit(exit);
