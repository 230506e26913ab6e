/**
 * `agjson inspect` as a user meets it (issue 31, docs/inspect.md): the built CLI prints the page's
 * URL, Debian's chromium (driven by playwright-core) opens it, and the five regions show what the
 * CLI's own commands say about the same stream — the Timeline holds as many rows as `agjson
 * normalize` prints events, the Conversation shows the final text `agjson reduce` folds, Problems
 * lists an invalid stream's issues. Then the security rules (token, Host, Origin, CSP), hostile
 * content shown as text, the upload caps, and the live tap of `agjson proxy --inspect`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { request, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSPECT_FROM } from "../src/cli/inspect-source.js";
import { bin, browserMissing, launchChromium, root, startCli, type RunningCli } from "./inspect-support.js";

/** Where the tests save the screenshots docs/inspect.md shows (scripts/inspect-screenshots.sh sets it). */
const SHOTS = process.env.AGJSON_INSPECT_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS !== undefined && SHOTS !== "") await page.screenshot({ path: join(root, SHOTS, `${name}.png`) });
}

/** Polls with room for a shared, busy machine (the first bridge answer loads the optional peers). */
function poll<T>(fn: () => Promise<T> | T) {
  return expect.poll(fn, { timeout: 20_000 });
}

const missing = browserMissing();
if (missing !== undefined) console.warn(missing);

function agjson(args: string[], input?: string): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: "utf8", cwd: root, maxBuffer: 256 << 20 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** The text of the last message with text that `agjson reduce` folds from these AgEvents. */
function finalText(eventsNdjson: string): string {
  const r = agjson(["reduce", "-"], eventsNdjson);
  const { result } = JSON.parse(r.out) as { result: { messages: { role: string; content: { type: string; text?: string }[] }[] } };
  const texts = result.messages.flatMap((m) =>
    m.content.filter((b) => b.type === "text" && typeof b.text === "string" && b.text.trim() !== "").map((b) => b.text!),
  );
  return texts.at(-1) ?? "";
}

const tmp = mkdtempSync(join(tmpdir(), "agjson-inspect-"));
const agui = `fixtures/agui/Step02_BackendTools/${readdirSync(join(root, "fixtures/agui/Step02_BackendTools"))[0]!}`;

/** One recording per facet family (§8): a provider API, an agent framework, AG-UI, A2A, and AgEvents themselves. */
const RECORDINGS = [
  { family: "provider", facet: "anthropic", file: "samples/anthropic-weather.chunks.txt" },
  { family: "framework", facet: "langgraph", file: "record/recordings/langgraph/tool-loop.native.ndjson" },
  { family: "AG-UI", facet: "ag-ui", file: agui },
  { family: "A2A", facet: "a2a", file: "record/recordings/a2a/direct-message-wire.native.ndjson" },
  { family: "AgEvent stream", facet: undefined, file: "samples/chat-with-tool.ndjson" },
] as const;

describe.skipIf(missing !== undefined)("agjson inspect in chromium", () => {
  let browser: Browser;
  const running: RunningCli[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await Promise.all(running.map((r) => r.stop()));
    await browser?.close();
  });

  async function inspect(args: string[]): Promise<RunningCli> {
    const cli = await startCli(["inspect", ...args, "--no-open"]);
    running.push(cli);
    return cli;
  }

  async function openPage(url: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForSelector('[role="grid"][data-ready="true"]');
    expect(errors).toEqual([]);
    return page;
  }

  for (const rec of RECORDINGS) {
    it(`${rec.family} (${rec.file}): Timeline rows = normalize's events, Conversation = reduce's final text, all five regions`, async () => {
      const events =
        rec.facet === undefined
          ? { out: readFileSync(join(root, rec.file), "utf8") }
          : agjson(["normalize", "--from", rec.facet, rec.file]);
      const count = events.out
        .trim()
        .split("\n")
        .filter((l) => l.trim() !== "").length;
      const text = finalText(events.out);
      expect(count).toBeGreaterThan(0);
      expect(text).not.toBe("");

      const cli = await inspect([rec.file]);
      expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
      if (rec.facet !== undefined) expect(cli.stderr()).toContain(`read as ${rec.facet} (detected`);
      const page = await openPage(cli.url);
      // Five landmarks, each named.
      for (const name of ["Timeline", "Conversation", "Problems", "Other protocols", "Next request"]) {
        await expect(page.getByRole("region", { name, exact: true }).count()).resolves.toBe(1);
      }
      const grid = page.getByRole("grid");
      expect(Number(await grid.getAttribute("aria-rowcount"))).toBe(count);
      const conversation = page.getByRole("region", { name: "Conversation" });
      await poll(() => conversation.getAttribute("data-at")).toBe(String(count - 1));
      expect(await conversation.textContent()).toContain(text.trim().slice(0, 200));
      // Other protocols: each bridge's output counted, AG-UI with verifyEvents' verdict.
      const protocols = page.getByRole("region", { name: "Other protocols" });
      await poll(() => protocols.textContent()).toMatch(/AG-UI events: \d+/);
      expect(await protocols.textContent()).toMatch(/verifyEvents (accepts|refuses)/);
      expect(await protocols.textContent()).toMatch(/AI SDK UI message chunks: \d+/);
      expect(await protocols.textContent()).toMatch(/ACP session updates: \d+/);
      // Next request: the four re-input targets, each with its drop report.
      const next = page.getByRole("region", { name: "Next request" });
      await poll(() => next.locator("details").count()).toBe(4);
      expect(await next.textContent()).toMatch(/anthropic — (\d+ dropped or changed|refused)/);
      // A normalized event shows the native chunk it came from.
      if (rec.facet !== undefined) await poll(() => page.getByText(/^Native chunk #\d+$/).count()).toBeGreaterThan(0);
      if (rec.facet === "anthropic") await shot(page, "inspect-overview");
      await page.close();
    });
  }

  it("re-folds at the selected event and moves with the keyboard", async () => {
    const cli = await inspect(["samples/chat-with-tool.ndjson"]);
    const page = await openPage(cli.url);
    const conversation = page.getByRole("region", { name: "Conversation" });
    await poll(() => conversation.getAttribute("data-at")).toBe("22");
    await page.getByRole("grid").focus();
    await page.keyboard.press("Home");
    await poll(() => conversation.getAttribute("data-at")).toBe("0");
    expect(await conversation.textContent()).not.toContain("It is 18°C");
    for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowDown");
    await poll(() => conversation.getAttribute("data-at")).toBe("9");
    expect(await conversation.textContent()).toContain("Let me check the weather in Paris.");
    expect(await page.getByRole("row", { selected: true }).textContent()).toContain("text.end");
    // Filters: by type family and free text.
    await page.getByRole("combobox", { name: "Type family" }).selectOption("tool");
    await poll(() => page.getByRole("grid").getAttribute("aria-rowcount")).toBe("5");
    await page.getByRole("combobox", { name: "Type family" }).selectOption("");
    await page.getByRole("searchbox", { name: "Free text" }).fill("light rain");
    await poll(() => page.getByRole("grid").getAttribute("aria-rowcount")).toBe("2");
    await page.close();
  });

  it("lists an invalid stream's strict, lenient and fold issues under Problems; each opens its event with the issue at its pointer", async () => {
    const file = join(tmp, "invalid.ndjson");
    const lines = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "tu" },
      { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "tu", threadId: "th" },
      { type: "text.start", seq: 2, id: "t" },
      { type: "text.delta", seq: 3, id: "t", delta: 42 },
      { type: "text.delta", seq: 4, id: "t", delta: "hi", surprise: true },
      { type: "text.delta", seq: 5, id: "nope", delta: "lost" },
      { type: "text.end", seq: 9, id: "t" },
    ].map((e) => JSON.stringify(e));
    writeFileSync(file, `${lines.join("\n")}\n{not json\n`);
    const expected = JSON.parse(agjson(["reduce", file]).out) as { errors: { kind: string }[] };
    expect(expected.errors.length).toBeGreaterThan(0);
    const cli = await inspect([file]);
    const page = await openPage(cli.url);
    const problems = page.getByRole("region", { name: "Problems" });
    await poll(() => problems.textContent()).toMatch(
      /\d+ problem\(s\): [1-9]\d* strict, [1-9]\d* lenient, [1-9]\d* fold, 1 unreadable record/,
    );
    const text = (await problems.textContent())!;
    expect(text).toContain("/delta");
    expect(text).toContain("/surprise");
    expect(text).toContain("INV-SEQ");
    // Every row with an issue is marked; clicking a problem selects its event and shows the issue under its line.
    await problems.getByRole("button", { name: /#3 seq 3 text.delta — lenient type at \/delta/ }).click();
    const detail = page.getByRole("group", { name: "Selected event" });
    await poll(() => detail.textContent()).toContain("Event #3 (seq 3): text.delta");
    const issue = detail.locator(".issue", { hasText: "lenient · type · /delta" });
    await expect(issue.count()).resolves.toBe(1);
    // The issue sits right under the line of its pointer.
    expect(
      await issue.evaluate((n) => {
        let line = n.previousElementSibling;
        while (line?.classList.contains("issue")) line = line.previousElementSibling;
        return line?.textContent;
      }),
    ).toContain('"delta": 42');
    expect(
      await page
        .getByRole("row", { selected: true })
        .getByLabel(/lenient issue/)
        .count(),
    ).toBe(1);
    await shot(page, "inspect-problems");
    await page.close();
  });

  it("shows an AgReduceResult (agjson reduce output): Conversation and Next request from it", async () => {
    const file = join(tmp, "reduced.json");
    writeFileSync(file, agjson(["reduce", "samples/chat-with-tool.ndjson"]).out);
    const cli = await inspect([file]);
    const page = await openPage(cli.url);
    expect(await page.getByRole("grid").getAttribute("aria-rowcount")).toBe("0");
    await poll(() => page.getByRole("region", { name: "Conversation" }).textContent()).toContain("It is 18°C with light rain in Paris.");
    await poll(() => page.getByRole("region", { name: "Next request" }).locator("details").count()).toBe(4);
    await page.close();
  });

  it("refuses an upload past the cap with a message, in the page and over HTTP", async () => {
    const small = await inspect(["--max-upload-bytes", "1000"]);
    const page = await browser.newPage();
    await page.goto(small.url);
    await page.waitForSelector('[role="grid"]');
    // The format selector offers what --from takes (the server's list), pydantic-ai included.
    await poll(() =>
      page
        .getByLabel("Read the next file as")
        .locator("option")
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(["", ...INSPECT_FROM]);
    const file = join(tmp, "big-upload.ndjson");
    writeFileSync(file, `${JSON.stringify({ type: "text.delta", seq: 0, id: "t", delta: "x".repeat(5000) })}\n`);
    await page.getByLabel("Open a file").setInputFiles(file);
    await poll(() => page.getByRole("alert").textContent()).toMatch(
      /big-upload\.ndjson is \d+ bytes; the inspector takes at most 1000 bytes/,
    );
    const url = new URL(small.url);
    const over = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: Number(url.port),
          path: `/api/docs?token=${url.searchParams.get("token")}&name=big`,
          method: "POST",
          headers: { "content-length": "5000" },
        },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString("utf8")));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.end(Buffer.alloc(5000, 0x20));
    });
    expect(over.status).toBe(413);
    expect(over.body).toContain("larger than the inspector's cap of 1000 bytes");
    // Within the cap an upload opens as a new tab.
    await page.getByLabel("Paste a stream").fill(`${JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "tu" })}\n`);
    await page.getByRole("button", { name: "Open pasted" }).click();
    await poll(() => page.getByRole("tab").textContent()).toContain("pasted (1)");
    // A file dropped on the page opens as another tab beside it.
    const dropped = await page.evaluateHandle(() => {
      const d = new DataTransfer();
      d.items.add(
        new File(
          [
            `${JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "tu" })}\n${JSON.stringify({ type: "turn.done", seq: 1, turnId: "tu", outcome: { type: "success" } })}\n`,
          ],
          "dropped.ndjson",
        ),
      );
      return d;
    });
    await page.dispatchEvent("body", "drop", { dataTransfer: dropped });
    await poll(() => page.getByRole("tab").allTextContents()).toEqual(["pasted (1)", "dropped.ndjson (2)"]);
    expect(await page.getByRole("tab", { selected: true }).textContent()).toBe("dropped.ndjson (2)");
    await page.close();
  });

  it("shows hostile stream content as text: no script runs, no markup or link is made, a 10 MB string does not hang the page", async () => {
    const file = join(tmp, "hostile.ndjson");
    const huge = "A".repeat(10 * 1024 * 1024);
    const events = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "tu" },
      { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "tu", threadId: "th" },
      { type: "text.start", seq: 2, id: "t" },
      { type: "text.delta", seq: 3, id: "t", delta: '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">' },
      {
        type: "text.end",
        seq: 4,
        id: "t",
        citations: [
          {
            kind: "url",
            citedText: "<b onmouseover=alert(1)>x</b>",
            url: "javascript:window.__pwned=3",
            startIndex: 0,
            endIndex: 1,
            unit: "utf16",
            bounds: "[start,end)",
          },
        ],
      },
      { type: "text.start", seq: 5, id: "t2" },
      { type: "text.delta", seq: 6, id: "t2", delta: huge },
      { type: "text.end", seq: 7, id: "t2" },
      { type: "message.end", seq: 8, id: "m" },
      { type: "turn.done", seq: 9, turnId: "tu", outcome: { type: "success" }, finishReason: "stop" },
    ];
    writeFileSync(file, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const cli = await inspect([file]);
    const page = await openPage(cli.url);
    const conversation = page.getByRole("region", { name: "Conversation" });
    await poll(() => conversation.getAttribute("data-at")).toBe("9");
    const text = (await conversation.textContent())!;
    expect(text).toContain("<script>window.__pwned = 1</script>");
    expect(text).toContain("javascript:window.__pwned=3");
    expect(text).toMatch(/more characters not shown/);
    expect(text.length).toBeLessThan(1_000_000);
    // A long run with no space is laid out in pieces with a break opportunity between them: one
    // 100,000-character token took the browser seconds to wrap, re-shaped for every line.
    const longestRun = await page.evaluate(() => {
      let longest = 0;
      const walk = document.createTreeWalker(document.querySelector("main")!, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode())
        for (const run of n.textContent!.match(/\S+/g) ?? []) longest = Math.max(longest, run.length);
      return longest;
    });
    expect(longestRun).toBeLessThanOrEqual(200);
    // The event with the script is shown whole, as text.
    await page.getByRole("grid").focus();
    await page.keyboard.press("Home");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
    await poll(() => page.getByRole("group", { name: "Selected event" }).textContent()).toContain("onerror");
    const dom = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned,
      scripts: document.scripts.length,
      images: document.images.length,
      links: document.querySelectorAll("a, [href]:not(link)").length,
      bold: document.querySelectorAll("main b:not(.m-strict):not(.m-lenient):not(.m-fold):not(.m-resync)").length,
    }));
    expect(dom).toEqual({ pwned: undefined, scripts: 1, images: 0, links: 0, bold: 0 });
    await page.close();
  });

  describe("live: agjson proxy --inspect", () => {
    const turn = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "tu" },
      { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "tu", threadId: "th" },
      { type: "text.start", seq: 2, id: "t" },
      { type: "text.delta", seq: 3, id: "t", delta: "streamed " },
      { type: "text.delta", seq: 4, id: "t", delta: 42 },
      { type: "text.delta", seq: 5, id: "t", delta: "live" },
      { type: "text.end", seq: 6, id: "t" },
      { type: "message.end", seq: 7, id: "m" },
      { type: "turn.done", seq: 8, turnId: "tu", outcome: { type: "success" }, finishReason: "stop" },
    ];
    let upstream: Server;
    let release: () => void = () => undefined;
    beforeAll(async () => {
      // An agent host that sends half the turn, waits for the test, then sends the rest.
      upstream = createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          res.writeHead(200, { "content-type": "text/event-stream" });
          for (const e of turn.slice(0, 4)) res.write(`data: ${JSON.stringify(e)}\n\n`);
          release = () =>
            res.end(
              turn
                .slice(4)
                .map((e) => `data: ${JSON.stringify(e)}\n\n`)
                .join(""),
            );
        });
      });
      await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    });
    afterAll(() => {
      release();
      upstream.close();
    });

    it("shows each stream through the proxy as it flows, invalid events included with their issues", async () => {
      const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
      const proxy = await startCli(["proxy", "--upstream", up, "--port", "0", "--inspect"], /inspector on (http:\/\/\S+)/);
      running.push(proxy);
      await poll(() => /listening on (http:\/\/\S+),/.test(proxy.stderr())).toBe(true);
      const proxyUrl = /listening on (http:\/\/\S+),/.exec(proxy.stderr())![1]!;
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(proxy.url);
      const input = {
        protocol: "agjson",
        version: "1.0.0-draft.1",
        kind: "start",
        threadId: "th",
        turnId: "tu",
        messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }],
      };
      const answer = fetch(proxyUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) }).then(
        (r) => r.text(),
      );
      // Half the turn is in the page while the stream is still open.
      await poll(() => page.getByRole("tab").textContent()).toMatch(/stream 1 \(4, live\)/);
      await poll(() => page.getByRole("grid").getAttribute("aria-rowcount")).toBe("4");
      await poll(() => page.getByRole("region", { name: "Conversation" }).textContent()).toContain("streamed");
      release();
      await answer;
      await poll(() => page.getByRole("grid").getAttribute("aria-rowcount")).toBe(String(turn.length));
      await poll(() => page.getByRole("region", { name: "Conversation" }).textContent()).toContain("streamed live");
      await poll(() => page.getByRole("region", { name: "Problems" }).textContent()).toContain("/delta");
      await shot(page, "inspect-live-proxy");
      await page.close();
    });
  });

  it("live: agjson serve --agui --inspect shows each AG-UI run as the real HttpAgent drives it", async () => {
    const serve = await startCli(
      ["serve", "--agui", "--replay", "samples/chat-with-tool.ndjson", "--port", "0", "--inspect"],
      /inspector on (http:\/\/\S+)/,
    );
    running.push(serve);
    await poll(() => /AG-UI endpoint on (http:\/\/\S+)/.test(serve.stderr())).toBe(true);
    const endpoint = /AG-UI endpoint on (http:\/\/\S+)/.exec(serve.stderr())![1]!;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(serve.url);
    await page.waitForSelector('[role="grid"]');
    const { HttpAgent } = await import("@ag-ui/client");
    const agent = new HttpAgent({ url: endpoint, initialMessages: [{ id: "u1", role: "user", content: "Weather in Paris?" }] });
    await agent.runAgent({ runId: "run-1" });
    await poll(() => page.getByRole("tab").textContent()).toMatch(/run 1 \(23, live\)/);
    await poll(() => page.getByRole("grid").getAttribute("aria-rowcount")).toBe("23");
    await poll(() => page.getByRole("region", { name: "Conversation" }).textContent()).toContain("It is 18°C with light rain in Paris.");
    await page.close();
  });
});

describe("agjson inspect server: token, Host, Origin, CSP (no browser needed)", () => {
  const started: RunningCli[] = [];
  afterAll(async () => {
    await Promise.all(started.map((r) => r.stop()));
  });
  let cli: RunningCli;
  let base: URL;
  beforeAll(async () => {
    cli = await startCli(["inspect", "samples/chat-with-tool.ndjson", "--no-open"]);
    started.push(cli);
    base = new URL(cli.url);
  });

  /** A raw request, so Host and Origin can be set as a rebinding attacker's page would send them. */
  function raw(
    path: string,
    headers: Record<string, string> = {},
    method = "GET",
    body?: Buffer,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: Number(base.port), path, method, headers }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }
  const token = () => base.searchParams.get("token")!;

  it("needs the per-run token on every request (403 without it or with another)", async () => {
    expect((await raw(`/api/docs?token=${token()}`)).status).toBe(200);
    for (const path of ["/", "/page.js", "/page.css", "/api/docs", "/api/docs/1/rows", "/api/live"]) {
      const r = await raw(path);
      expect(r.status, path).toBe(403);
      expect(r.body).toContain("needs its token");
      expect((await raw(`${path}?token=${"0".repeat(64)}`)).status, path).toBe(403);
    }
    expect((await raw(`/api/docs`, { "x-agjson-token": token() })).status).toBe(200);
  });

  it("refuses a Host that is not this server (DNS rebinding) and a foreign Origin", async () => {
    const q = `/api/docs?token=${token()}`;
    expect((await raw(q, { host: `attacker.example:${base.port}` })).status).toBe(403);
    expect((await raw(q, { host: `127.0.0.1:${Number(base.port) + 1}` })).status).toBe(403);
    expect((await raw(q, { host: `localhost:${base.port}` })).status).toBe(200);
    expect((await raw(q, { origin: "http://attacker.example" })).status).toBe(403);
    expect((await raw(q, { origin: "null" })).status).toBe(403);
    expect((await raw(q, { origin: `http://127.0.0.1:${base.port}` })).status).toBe(200);
    // The Host check reads the name without case; the Origin check reads it the same way.
    expect((await raw(q, { host: `LOCALHOST:${base.port}`, origin: `http://localhost:${base.port}` })).status).toBe(200);
    expect((await raw(`/api/docs?token=${token()}&name=x`, { origin: "http://attacker.example" }, "POST", Buffer.from("{}"))).status).toBe(
      403,
    );
  });

  it("serves every answer with a CSP of no inline script and no remote origin; the page has no inline script", async () => {
    const r = await raw(`/?token=${token()}`);
    const csp = String(r.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(r.headers["referrer-policy"]).toBe("no-referrer");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    // Script only by src, style only by link: nothing the CSP would have to allow inline.
    expect(r.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(r.body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const path of ["/api/docs", "/page.js"])
      expect(String((await raw(`${path}?token=${token()}`)).headers["content-security-policy"])).toBe(csp);
  });

  it("refuses an upload past its cap (413, naming the cap and the flag) and takes one within it", async () => {
    const small = await startCli(["inspect", "--no-open", "--max-upload-bytes", "1000"]);
    started.push(small);
    const url = new URL(small.url);
    const post = (body: Buffer) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port: Number(url.port),
            path: `/api/docs?token=${url.searchParams.get("token")}&name=up`,
            method: "POST",
            headers: { "content-length": String(body.length) },
          },
          (res) => {
            let text = "";
            res.on("data", (c: Buffer) => (text += c.toString("utf8")));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const over = await post(Buffer.alloc(5000, 0x20));
    expect(over.status).toBe(413);
    expect(over.body).toContain("larger than the inspector's cap of 1000 bytes (agjson inspect --max-upload-bytes raises it");
    const ok = await post(Buffer.from(`${JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "tu" })}\n`));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ name: "up", count: 1, source: "AgEvent stream" });
    const unknown = await post(Buffer.from(`${JSON.stringify({ hello: "there" })}\n`));
    expect(unknown.status).toBe(422);
    expect(unknown.body).toContain("give --from");
  });

  it("reads stdin (-), and warns when --host is not loopback", async () => {
    const fromStdin = await startCli(
      ["inspect", "-", "--no-open"],
      undefined,
      readFileSync(join(root, "samples/chat-with-tool.ndjson"), "utf8"),
    );
    started.push(fromStdin);
    const docs = (await (
      await fetch(new URL(`/api/docs?token=${new URL(fromStdin.url).searchParams.get("token")}`, fromStdin.url))
    ).json()) as { name: string; count: number }[];
    expect(docs).toEqual([expect.objectContaining({ name: "stdin", count: 23 })]);
    const wide = await startCli(["inspect", "--no-open", "--host", "0.0.0.0"]);
    started.push(wide);
    expect(wide.stderr()).toContain("warning: --host 0.0.0.0 is not a loopback address");
    expect(wide.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });
});
