/**
 * The part every provider facet shares (§8.0): one engine per invoke, named by the facet's §12
 * vendor segment; `push()` guarded so a chunk that cannot be mapped degrades to
 * `ext.<vendor>.unparsed` instead of throwing; `flush()` = INV-FLUSH, after the facet has settled
 * what the provider ended but has not yet closed. A facet only writes `handle(chunk)`.
 */
import type { AgEvent } from "../../generated/types.js";
import { guardedPush, NormalizerEngine, type Normalizer, type NormalizerOptions } from "./engine.js";

export abstract class ProviderFacet implements Normalizer {
  protected readonly engine: NormalizerEngine;

  /** `engine` given: this facet writes onto a framework facet's engine (a wrapped provider stream, §8.0). */
  protected constructor(vendor: string, opts: NormalizerOptions, engine?: NormalizerEngine) {
    this.engine = engine ?? new NormalizerEngine(vendor, opts);
  }

  push(native: unknown): AgEvent[] {
    return guardedPush(this.engine, native, (chunk) => this.handle(chunk));
  }

  /**
   * Translates one native chunk onto the engine without draining it: the entry a framework facet
   * uses to delegate the provider stream it wraps to this facet's mapping (its own push drains).
   */
  feed(chunk: unknown): void {
    this.handle(chunk);
  }

  flush(): AgEvent[] {
    this.settleBeforeFlush();
    return this.engine.flush();
  }

  /** Translates one native chunk into engine calls; a throw here becomes `ext.<vendor>.unparsed`. */
  protected abstract handle(chunk: unknown): void;

  /**
   * Closes what the provider itself ended but the facet was still holding open (e.g. a response
   * whose terminal arrived and whose trailing usage did not) — never a synthetic close of
   * something the provider left open, which INV-FLUSH forbids. Default: nothing held.
   */
  protected settleBeforeFlush(): void {}
}
