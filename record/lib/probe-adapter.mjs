// The offline guard's own proof (`record.mjs --self-test`, run first by `--check`): an adapter that,
// like the Claude Agent SDK, starts a child process with an environment of its own — a fresh Node
// without NODE_OPTIONS, so netguard.cjs is not in it — and has that child open a TCP connection.
// Options: `target: "replay"` (the loopback replay server: the run must pass and the trace must name
// the child) or `target: "192.0.2.1:9"` (TEST-NET-1, RFC 5737: never routed; the run must fail).
import { spawn } from "node:child_process";

const CHILD = `
const [host, port] = process.argv[1].split(" ");
const s = require("node:net").connect(Number(port), host);
const done = () => { s.destroy(); process.exit(0); };
s.on("connect", done);
s.on("error", done);
setTimeout(done, 2000);
`;

export default {
  name: "probe",
  providers: [],
  async run({ baseUrl, scenario, emit }) {
    const url = new URL(baseUrl);
    const target = scenario.options.target === "replay" ? `${url.hostname} ${url.port}` : scenario.options.target.replace(":", " ");
    const child = spawn(process.execPath, ["-e", CHILD, target], { env: { PATH: process.env.PATH }, stdio: "ignore" });
    const code = await new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", resolve);
    });
    emit({ probe: target, childPid: child.pid, exit: code });
    return { text: null, toolCalls: [], stop: "done", stopReason: null, usage: null, framework: { childPid: child.pid } };
  },
};
