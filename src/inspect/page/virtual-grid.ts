/**
 * The Timeline's grid (WAI-ARIA grid pattern): `role="grid"` whose `aria-rowcount` is the number of
 * events it holds, each row `aria-rowindex`ed, the selected one `aria-selected` and the grid's
 * `aria-activedescendant`. Rows are virtualized: only those in view (and a few around) are in the
 * DOM, fetched from the server a page at a time, so a stream of 100,000 events keeps the DOM small.
 * Keys: arrows, Page Up / Down, Home / End.
 */
import type { RowsAnswer, TimelineRow } from "../protocol.js";
import { clear, el } from "./dom.js";

const ROW_HEIGHT = 22;
const PAGE = 200;
const OVERSCAN = 4;

export interface VirtualGridOptions {
  label: string;
  columns: string[];
  fetch(offset: number, limit: number): Promise<RowsAnswer>;
  cells(row: TimelineRow): (string | Node)[];
  onSelect(row: TimelineRow): void;
}

export class VirtualGrid {
  readonly head: HTMLElement;
  readonly viewport: HTMLElement;
  readonly #body: HTMLElement;
  #total = 0;
  #pages = new Map<number, TimelineRow[] | Promise<void>>();
  #position = -1;
  #generation = 0;
  #frame = 0;

  constructor(private readonly opts: VirtualGridOptions) {
    this.head = el("div", { class: "grid-head", "aria-hidden": "true" }, ...opts.columns.map((c) => el("span", {}, c)));
    this.#body = el("div", { class: "spacer", role: "rowgroup" });
    this.viewport = el(
      "div",
      {
        class: "viewport",
        role: "grid",
        tabindex: "0",
        "aria-label": opts.label,
        "aria-rowcount": "0",
        "aria-colcount": String(opts.columns.length),
        "aria-readonly": "true",
      },
      this.#body,
    );
    this.viewport.addEventListener("scroll", () => this.#schedule());
    this.viewport.addEventListener("keydown", (e) => this.#key(e));
    new ResizeObserver(() => this.#schedule()).observe(this.viewport);
  }

  get total(): number {
    return this.#total;
  }

  /** Starts over (a new stream or filter) with `position` selected and in view. */
  async reset(position: number): Promise<void> {
    this.#generation++;
    this.#pages.clear();
    this.viewport.dataset.ready = "false";
    await this.#load(Math.floor(Math.max(0, position) / PAGE));
    this.#position = this.#total === 0 ? -1 : Math.min(Math.max(0, position), this.#total - 1);
    this.#scrollTo(this.#position);
    this.#render();
    this.viewport.dataset.ready = "true";
  }

  /** The stream grew (live): reload the rows; with `position`, select it and keep it in view. */
  async refresh(position?: number): Promise<void> {
    this.#generation++;
    this.#pages.clear();
    const first = Math.floor(this.viewport.scrollTop / ROW_HEIGHT);
    await this.#load(Math.floor((position ?? first) / PAGE));
    if (position !== undefined) {
      this.#position = Math.min(position, this.#total - 1);
      this.#scrollTo(this.#position);
    }
    this.#render();
  }

  async #load(page: number): Promise<void> {
    const had = this.#pages.get(page);
    if (had !== undefined) return had instanceof Promise ? had : undefined;
    const generation = this.#generation;
    const pending = this.opts.fetch(page * PAGE, PAGE).then((answer) => {
      if (generation !== this.#generation) return;
      this.#pages.set(page, answer.rows);
      this.#setTotal(answer.total);
    });
    this.#pages.set(page, pending);
    return pending;
  }

  #setTotal(total: number): void {
    this.#total = total;
    this.viewport.setAttribute("aria-rowcount", String(total));
    this.#body.style.height = `${total * ROW_HEIGHT}px`;
  }

  #row(position: number): TimelineRow | undefined {
    const page = this.#pages.get(Math.floor(position / PAGE));
    return Array.isArray(page) ? page[position % PAGE] : undefined;
  }

  #schedule(): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#render();
    });
  }

  #render(): void {
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.#total - 1, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    clear(this.#body);
    let missing = false;
    for (let p = first; p <= last; p++) {
      const row = this.#row(p);
      if (row === undefined) missing = true;
      const node = el(
        "div",
        { class: "row", role: "row", id: `row-${p}`, "aria-rowindex": String(p + 1), "aria-selected": String(p === this.#position) },
        ...(row ? this.opts.cells(row) : ["…"]).map((c) => el("span", { role: "gridcell" }, c)),
      );
      node.style.top = `${p * ROW_HEIGHT}px`;
      if (row) node.addEventListener("click", () => this.#select(p));
      this.#body.append(node);
    }
    if (this.#position >= first && this.#position <= last) this.viewport.setAttribute("aria-activedescendant", `row-${this.#position}`);
    else this.viewport.removeAttribute("aria-activedescendant");
    if (missing) {
      const pages = new Set<number>();
      for (let p = first; p <= last; p++) if (this.#row(p) === undefined) pages.add(Math.floor(p / PAGE));
      void Promise.all([...pages].map((pg) => this.#load(pg))).then(() => this.#schedule());
    }
  }

  #scrollTo(position: number): void {
    if (position < 0) return;
    const top = position * ROW_HEIGHT;
    const height = this.viewport.clientHeight || 400;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (top + ROW_HEIGHT > this.viewport.scrollTop + height) this.viewport.scrollTop = top + ROW_HEIGHT - height;
  }

  async #select(position: number): Promise<void> {
    if (this.#total === 0) return;
    const p = Math.min(Math.max(0, position), this.#total - 1);
    this.#position = p;
    this.#scrollTo(p);
    this.#render();
    let row = this.#row(p);
    if (row === undefined) {
      await this.#load(Math.floor(p / PAGE));
      row = this.#row(p);
      this.#render();
    }
    if (row !== undefined && this.#position === p) this.opts.onSelect(row);
  }

  #key(e: KeyboardEvent): void {
    const pageRows = Math.max(1, Math.floor((this.viewport.clientHeight || 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: pageRows,
      PageUp: -pageRows,
      Home: -Infinity,
      End: Infinity,
    };
    const move = moves[e.key];
    if (move === undefined) return;
    e.preventDefault();
    const to = move === -Infinity ? 0 : move === Infinity ? this.#total - 1 : this.#position + move;
    void this.#select(to);
  }
}
