/**
 * The inspector page (docs/inspect.md). It renders what the loopback server computed and sends
 * (protocol.ts); it parses no stream and ships none of the library. Every piece of stream content
 * reaches the DOM as text (`textContent`), never as markup or a URL, so a `<script>`, an `onerror=`
 * or a `javascript:` link in a stream is only ever shown. Five regions, each a landmark: Timeline,
 * Conversation, Problems, Other protocols, Next request.
 */
import type {
  DocSummary,
  InspectConfig,
  EventAnswer,
  FoldAnswer,
  NextAnswer,
  ProblemsAnswer,
  ProtocolsAnswer,
  RowsAnswer,
  TimelineRow,
} from "../protocol.js";
import { el, clear, textBlock } from "./dom.js";
import { VirtualGrid } from "./virtual-grid.js";

const token = new URLSearchParams(location.search).get("token") ?? "";

/** GET an API path; the token rides every request (the server refuses any without it). */
async function api<T>(path: string, params: Record<string, string | number | undefined> = {}): Promise<T> {
  const q = new URLSearchParams({ token });
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const res = await fetch(`${path}?${q.toString()}`);
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

// ---- the frame ---------------------------------------------------------------------------------

const alertBox = el("p", { class: "alert", role: "alert" });
const tabs = el("div", { role: "tablist", "aria-label": "Open streams" });
const fileInput = el("input", { type: "file", "aria-label": "Open a file" });
const fromSelect = el("select", { "aria-label": "Read the next file as" });
fromSelect.append(el("option", { value: "" }, "detect the format"));
const pasteBox = el("textarea", { class: "paste", "aria-label": "Paste a stream", placeholder: "…or paste a stream" });
const pasteButton = el("button", { type: "button" }, "Open pasted");

const header = el(
  "header",
  {},
  el("h1", {}, "agjson inspect"),
  tabs,
  el("div", { class: "tools" }, fromSelect, fileInput, pasteBox, pasteButton),
  alertBox,
);

function region(id: string, title: string): { section: HTMLElement; heading: HTMLElement; body: HTMLElement } {
  const heading = el("h2", { id: `${id}-title` }, title);
  const body = el("div", { class: "body" });
  const section = el("section", { id, "aria-labelledby": `${id}-title` }, heading, body);
  return { section, heading, body };
}

// Timeline: filters, the virtualized grid, the selected event's JSON.
const familySelect = el("select", { "aria-label": "Type family" }, el("option", { value: "" }, "all types"));
const turnInput = el("input", { type: "search", "aria-label": "Turn id", placeholder: "turn id" });
const messageInput = el("input", { type: "search", "aria-label": "Message id", placeholder: "message id" });
const toolInput = el("input", { type: "search", "aria-label": "Tool call id", placeholder: "tool call id" });
const textInput = el("input", { type: "search", "aria-label": "Free text", placeholder: "text" });
const problemsOnly = el("input", { type: "checkbox" });
const filters = el(
  "form",
  { class: "filters", role: "search", "aria-label": "Filter the Timeline" },
  familySelect,
  turnInput,
  messageInput,
  toolInput,
  textInput,
  el("label", {}, problemsOnly, "with problems"),
);
const timeline = region("timeline", "Timeline");
const detail = el("div", { class: "detail", "aria-label": "Selected event", role: "group" });
const grid = new VirtualGrid({
  label: "Timeline events: seq, type, turn, message, block, tool call, marks",
  columns: ["Seq", "Type", "Turn", "Message", "Block", "Tool call", "Marks"],
  fetch: (offset, limit) =>
    current
      ? api<RowsAnswer>(`/api/docs/${current.id}/rows`, { offset, limit, ...filterParams() })
      : Promise.resolve({ total: 0, offset: 0, rows: [] }),
  cells: rowCells,
  onSelect: (row) => select(row.index),
});
timeline.body.replaceWith(filters, grid.head, grid.viewport, detail);

const conversation = region("conversation", "Conversation");
const problems = region("problems", "Problems");
const protocols = region("protocols", "Other protocols");
const next = region("next", "Next request");
const main = el("main", {}, timeline.section, conversation.section, problems.section, protocols.section, next.section);
const dropHint = el("div", { class: "drop-hint", "aria-hidden": "true" }, "Drop a stream to open it");
document.body.append(header, main, dropHint);

// ---- state ---------------------------------------------------------------------------------------

let docs: DocSummary[] = [];
let current: DocSummary | undefined;
let selected = -1;
let maxUploadBytes = Number.POSITIVE_INFINITY;

function filterParams(): Record<string, string> {
  return {
    family: familySelect.value,
    turn: turnInput.value.trim(),
    message: messageInput.value.trim(),
    tool: toolInput.value.trim(),
    q: textInput.value,
    ...(problemsOnly.checked ? { problems: "1" } : {}),
  };
}

function say(message: string): void {
  alertBox.textContent = message;
}

function rowCells(row: TimelineRow): (string | Node)[] {
  const marks = el("span", { class: "marks" });
  const mark = (cls: string, n: number, label: string) => {
    if (n > 0) marks.append(el("b", { class: cls, title: label, "aria-label": label }, String(n)));
  };
  mark("m-strict", row.strict, `${row.strict} strict issue(s)`);
  mark("m-lenient", row.lenient, `${row.lenient} lenient issue(s)`);
  mark("m-fold", row.fold, `${row.fold} fold issue(s)`);
  if (row.resync)
    marks.append(
      el(
        "b",
        {
          class: "m-resync",
          title: row.resync === "needs" ? "resync needed from here" : "resync done here",
          "aria-label": row.resync === "needs" ? "resync needed" : "resynced",
        },
        row.resync === "needs" ? "R" : "r",
      ),
    );
  return [row.seq === null ? "—" : String(row.seq), row.type, row.turn ?? "", row.message ?? "", row.block ?? "", row.tool ?? "", marks];
}

// ---- tabs ----------------------------------------------------------------------------------------

function renderTabs(): void {
  clear(tabs);
  for (const d of docs) {
    const tab = el(
      "button",
      {
        type: "button",
        role: "tab",
        "aria-selected": String(d.id === current?.id),
        tabindex: d.id === current?.id ? "0" : "-1",
        title: `${d.source}${d.note ? ` — ${d.note}` : ""}`,
      },
      `${d.name} (${d.count}${d.live ? ", live" : ""})`,
    );
    tab.addEventListener("click", () => void open(d.id));
    tab.addEventListener("keydown", (e) => {
      const i = docs.indexOf(d);
      const to =
        e.key === "ArrowRight"
          ? docs[(i + 1) % docs.length]
          : e.key === "ArrowLeft"
            ? docs[(i - 1 + docs.length) % docs.length]
            : undefined;
      if (to) {
        e.preventDefault();
        void open(to.id).then(() => (tabs.querySelector('[aria-selected="true"]') as HTMLElement | null)?.focus());
      }
    });
    tabs.append(tab);
  }
}

async function open(id: string): Promise<void> {
  current = docs.find((d) => d.id === id);
  renderTabs();
  if (!current) return;
  say("");
  const families = await api<string[]>(`/api/docs/${id}/families`);
  clear(familySelect);
  familySelect.append(el("option", { value: "" }, "all types"), ...families.map((f) => el("option", { value: f }, f)));
  for (const i of [turnInput, messageInput, toolInput, textInput]) i.value = "";
  problemsOnly.checked = false;
  selected = current.count - 1;
  await grid.reset(Math.max(0, selected));
  // For `make bench` (bench/inspect.ts): navigation → the first Timeline a user can move in.
  if (performance.getEntriesByName("agjson:timeline-interactive").length === 0) performance.mark("agjson:timeline-interactive");
  void showEvent();
  void showFold();
  void guarded(problems.body, showProblems)();
  loadLater();
}

/** Runs a region's loader; a failure is said in the region, never left as "loading". */
function guarded(body: HTMLElement, load: () => Promise<void>): () => Promise<void> {
  return () =>
    load().catch((err: unknown) => {
      clear(body);
      body.append(el("p", { class: "bad" }, `could not load: ${err instanceof Error ? err.message : String(err)}`));
    });
}

/** Other protocols and Next request run every bridge over the stream: at once for a small one, on request for a big one. */
function loadLater(): void {
  const doc = current;
  if (!doc) return;
  for (const [r, run] of [
    [protocols, showProtocols],
    [next, showNext],
  ] as const) {
    const load = guarded(r.body, run);
    clear(r.body);
    if (doc.count <= 20_000) void load();
    else {
      const b = el("button", { type: "button" }, `Compute for all ${doc.count} events`);
      b.addEventListener("click", () => void load());
      r.body.append(b);
    }
  }
}

// ---- selection -----------------------------------------------------------------------------------

let folding = false;
let foldAgain = false;
function select(index: number): void {
  selected = index;
  void showEvent();
  // One fold request at a time: a held arrow key asks again once the answer is in, for where the selection is then.
  if (folding) {
    foldAgain = true;
    return;
  }
  folding = true;
  void (async () => {
    do {
      foldAgain = false;
      await showFold().catch(() => undefined);
    } while (foldAgain);
    folding = false;
  })();
}

let eventTicket = 0;
async function showEvent(): Promise<void> {
  const doc = current;
  const ticket = ++eventTicket;
  clear(detail);
  if (!doc || selected < 0) {
    detail.append(el("p", { class: "muted" }, doc ? "No events." : "Open a stream: a file on the command line, or drop / paste one here."));
    return;
  }
  const e = await api<EventAnswer>(`/api/docs/${doc.id}/event`, { index: selected });
  if (ticket !== eventTicket) return;
  detail.append(el("h3", {}, `Event #${e.index}${e.seq === null ? "" : ` (seq ${e.seq})`}: ${e.type}`));
  const pre = el("div", { class: "json" });
  const byLine = new Map<number, HTMLElement[]>();
  for (const i of e.issues) {
    const node = el("div", { class: `issue ${i.source}` }, `${i.source} · ${i.rule} · ${i.path || "/"} · ${i.message} · ${i.spec}`);
    byLine.set(i.line ?? 0, [...(byLine.get(i.line ?? 0) ?? []), node]);
  }
  e.lines.forEach((l, n) => {
    pre.append(textBlock("div", {}, l.text));
    for (const node of byLine.get(n) ?? []) pre.append(node);
  });
  detail.append(pre);
  for (const n of e.natives ?? []) {
    const box = el("div", { class: "json" });
    for (const l of n.lines) box.append(textBlock("div", {}, l.text));
    detail.append(el("details", {}, el("summary", {}, `Native chunk #${n.index}`), box));
  }
}

let foldTicket = 0;
async function showFold(): Promise<void> {
  const doc = current;
  const ticket = ++foldTicket;
  if (!doc) return;
  const f = await api<FoldAnswer>(`/api/docs/${doc.id}/fold`, { at: selected });
  if (ticket !== foldTicket) return;
  renderFold(f);
  conversation.section.dataset.at = String(f.at);
}

function renderFold(f: FoldAnswer): void {
  const b = conversation.body;
  clear(b);
  const where = f.at < 0 ? "the whole result" : `after event #${f.at}`;
  b.append(
    el(
      "p",
      { class: "muted" },
      `Fold ${where}: ${f.messagesTotal} message(s)${f.messagesTotal > f.messagesShown ? `, the last ${f.messagesShown} shown` : ""}; ${f.foldErrors} fold issue(s)${f.needsResync ? "; needs a snapshot resync (§5.0)" : ""}.`,
    ),
  );
  for (const m of f.messages) {
    const box = el(
      "article",
      { class: "msg", "aria-label": `${m.role} message ${m.id}` },
      el("h3", {}, `${m.role}${m.agent ? ` (${m.agent})` : ""} · ${m.id}${m.turn ? ` · turn ${m.turn}` : ""}`),
    );
    for (const p of m.parts) {
      if (p.kind === "text") {
        box.append(textBlock("p", { class: "text" }, p.text));
        if (p.citations)
          box.append(el("ul", { class: "muted" }, ...p.citations.map((c) => el("li", {}, `cites “${c.label}” — ${c.target}`))));
      } else if (p.kind === "reasoning")
        box.append(el("details", {}, el("summary", {}, "Reasoning"), textBlock("p", { class: "text" }, p.text)));
      else if (p.kind === "tool-call") {
        box.append(
          el(
            "div",
            { class: "tool" },
            el("div", {}, `Tool call ${p.name} (${p.id})`),
            textBlock("pre", { class: "block" }, p.input),
            p.result
              ? el("div", {}, `→ ${p.result.outcome}: `, textBlock("span", { class: "text" }, p.result.text))
              : el("div", { class: "muted" }, "no result yet"),
          ),
        );
      } else if (p.kind === "tool-result")
        box.append(el("div", { class: "tool" }, `Tool result for ${p.id} → ${p.outcome}: `, textBlock("span", { class: "text" }, p.text)));
      else box.append(el("div", {}, `${p.type}: `, textBlock("pre", { class: "block" }, p.json)));
    }
    b.append(box);
  }
  if (f.turns.length > 0) {
    b.append(el("h3", {}, "Turns"));
    b.append(
      el(
        "ul",
        {},
        ...f.turns.map((t) =>
          el(
            "li",
            {},
            `${t.turn}: ${t.outcome ?? "open"}${t.finishReason ? ` (${t.finishReason})` : ""}${t.usage ? ` · usage ${t.usage}` : ""}${t.cost ? ` · cost ${t.cost}` : ""}${t.asks.length > 0 ? ` · asks ${t.asks.join("; ")}` : ""}`,
          ),
        ),
      ),
    );
  }
  if (f.artifacts.length > 0)
    b.append(
      el("h3", {}, "Artifacts"),
      el("ul", {}, ...f.artifacts.map((a) => el("li", {}, `${a.name ?? a.id}: `, textBlock("span", { class: "text" }, a.text)))),
    );
  if (f.state !== undefined) b.append(el("h3", {}, "State"), textBlock("pre", { class: "block" }, f.state));
}

async function showProblems(): Promise<void> {
  const doc = current;
  if (!doc) return;
  const p = await api<ProblemsAnswer>(`/api/docs/${doc.id}/problems`);
  if (doc.id !== current?.id) return;
  clear(problems.body);
  const c = p.counts;
  problems.body.append(
    el(
      "p",
      {},
      `${p.total} problem(s): ${c.strict} strict, ${c.lenient} lenient, ${c.fold} fold${c.record > 0 ? `, ${c.record} unreadable record(s)` : ""}${p.total > p.items.length ? `; the first ${p.items.length} listed` : ""}.`,
    ),
  );
  const list = el("ul", { class: "plain" });
  for (const item of p.items) {
    const i = item.issue;
    const label = `${item.index < 0 ? "result" : `#${item.index}`}${item.seq === null ? "" : ` seq ${item.seq}`} ${item.type} — ${i.source} ${i.rule} at ${i.path || "/"}: ${i.message} (${i.spec})`;
    const b = el("button", { type: "button", class: "problem" }, label);
    if (item.index >= 0) b.addEventListener("click", () => void goTo(item.index));
    list.append(el("li", {}, b));
  }
  problems.body.append(list);
}

/** Selects event `index`, clearing the filters when they hide it. */
async function goTo(index: number): Promise<void> {
  const doc = current;
  if (!doc) return;
  let { position } = await api<{ position: number }>(`/api/docs/${doc.id}/position`, { index, ...filterParams() });
  if (position < 0) {
    for (const i of [turnInput, messageInput, toolInput, textInput]) i.value = "";
    familySelect.value = "";
    problemsOnly.checked = false;
    position = index;
  }
  selected = index;
  await grid.reset(position);
  grid.viewport.focus();
  void showEvent();
  void showFold();
}

async function showProtocols(): Promise<void> {
  const doc = current;
  if (!doc) return;
  clear(protocols.body);
  protocols.body.append(el("p", { class: "muted" }, "Converting…"));
  const p = await api<ProtocolsAnswer>(`/api/docs/${doc.id}/protocols`);
  if (doc.id !== current?.id) return;
  clear(protocols.body);
  for (const v of p.protocols) {
    const list = el("ol", { start: "0" }, ...v.items.map((i) => el("li", {}, textBlock("pre", { class: "block" }, i))));
    protocols.body.append(
      el("h3", {}, `${v.name}: ${v.count}`),
      ...(v.verdict ? [el("p", { class: v.verdict.ok ? "ok" : "bad" }, v.verdict.text)] : []),
      el("details", {}, el("summary", {}, v.count > v.items.length ? `the first ${v.items.length}` : "show"), list),
    );
  }
}

async function showNext(): Promise<void> {
  const doc = current;
  if (!doc) return;
  clear(next.body);
  next.body.append(el("p", { class: "muted" }, "Building requests…"));
  const n = await api<NextAnswer>(`/api/docs/${doc.id}/next`);
  if (doc.id !== current?.id) return;
  clear(next.body);
  next.body.append(el("p", { class: "muted" }, n.at < 0 ? "From the whole result." : `From the fold after event #${n.at} (the last).`));
  for (const t of n.targets) {
    const dropped = t.report.length;
    const body = el("div", {});
    if (t.error !== undefined) body.append(el("p", { class: "bad" }, `refused: ${t.error}`));
    if (dropped > 0) body.append(el("ul", {}, ...t.report.map((r) => el("li", {}, `${r.action} [${r.reason}] ${r.where}: ${r.detail}`))));
    else body.append(el("p", { class: "ok" }, "nothing dropped or changed"));
    if (t.request !== undefined) body.append(textBlock("pre", { class: "block" }, t.request));
    next.body.append(
      el(
        "details",
        { "data-target": t.target },
        el("summary", {}, `${t.target}${t.error !== undefined ? " — refused" : ` — ${dropped} dropped or changed`}`),
        body,
      ),
    );
  }
}

// ---- filters -------------------------------------------------------------------------------------

let filterTimer: number | undefined;
function refilter(): void {
  if (filterTimer !== undefined) clearTimeout(filterTimer);
  filterTimer = window.setTimeout(() => {
    void (async () => {
      const doc = current;
      if (!doc) return;
      const { position } = await api<{ position: number }>(`/api/docs/${doc.id}/position`, { index: selected, ...filterParams() });
      await grid.reset(Math.max(0, position));
    })();
  }, 120);
}
filters.addEventListener("input", refilter);
filters.addEventListener("submit", (e) => e.preventDefault());

// ---- opening files: input, drop, paste ----------------------------------------------------------

async function upload(body: Blob, name: string): Promise<void> {
  if (body.size > maxUploadBytes) {
    say(
      `${name} is ${body.size} bytes; the inspector takes at most ${maxUploadBytes} bytes per upload (agjson inspect --max-upload-bytes raises it, or open it from the command line).`,
    );
    return;
  }
  say(`Opening ${name}…`);
  const q = new URLSearchParams({ token, name, from: fromSelect.value });
  try {
    const res = await fetch(`/api/docs?${q.toString()}`, { method: "POST", body, headers: { "content-type": "application/octet-stream" } });
    const answer = (await res.json()) as DocSummary & { error?: string };
    if (!res.ok) {
      say(answer.error ?? `the upload failed (HTTP ${res.status})`);
      return;
    }
    say("");
    docs = [...docs.filter((d) => d.id !== answer.id), answer];
    await open(answer.id);
  } catch (err) {
    say(`the upload failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

fileInput.addEventListener("change", () => {
  for (const f of Array.from(fileInput.files ?? [])) void upload(f, f.name);
  fileInput.value = "";
});
pasteButton.addEventListener("click", () => {
  if (pasteBox.value.trim() === "") return say("Paste a stream into the box first.");
  void upload(new Blob([pasteBox.value]), "pasted");
  pasteBox.value = "";
});
document.addEventListener("dragover", (e) => {
  e.preventDefault();
  document.body.classList.add("dragging");
});
document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
document.addEventListener("drop", (e) => {
  e.preventDefault();
  document.body.classList.remove("dragging");
  for (const f of Array.from(e.dataTransfer?.files ?? [])) void upload(f, f.name);
});

// ---- live updates --------------------------------------------------------------------------------

let liveTimer: number | undefined;
function onDocs(list: DocSummary[]): void {
  const before = current ? docs.find((d) => d.id === current!.id) : undefined;
  docs = list;
  if (!current && docs.length > 0) {
    void open(docs[0]!.id);
    return;
  }
  if (current) current = docs.find((d) => d.id === current!.id) ?? current;
  renderTabs();
  if (current && before && current.count !== before.count) {
    // A live stream grew: the rows, the fold at the last event (when it was selected) and the problems follow.
    const follow = selected === before.count - 1;
    if (follow) selected = current.count - 1;
    void grid.refresh(follow ? selected : undefined);
    if (follow) {
      void showEvent();
      void showFold();
    }
    if (liveTimer === undefined) {
      liveTimer = window.setTimeout(() => {
        liveTimer = undefined;
        void guarded(problems.body, showProblems)();
        loadLater();
      }, 500);
    }
  }
}

async function start(): Promise<void> {
  try {
    const config = await api<InspectConfig>("/api/config");
    maxUploadBytes = config.maxUploadBytes;
    // The formats are the server's own list (`--from`'s: agjson and every facet), never a copy here.
    for (const v of config.formats) fromSelect.append(el("option", { value: v }, v));
  } catch (err) {
    say(err instanceof Error ? err.message : String(err));
    return;
  }
  const live = new EventSource(`/api/live?token=${encodeURIComponent(token)}`);
  live.addEventListener("message", (e: MessageEvent<string>) => onDocs(JSON.parse(e.data) as DocSummary[]));
  if (docs.length === 0) {
    clear(detail);
    detail.append(el("p", { class: "muted" }, "Open a stream: a file on the command line, or drop / paste one here."));
  }
}
void start();
