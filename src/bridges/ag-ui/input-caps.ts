/**
 * The bounds an AG-UI `RunAgentInput` must fit before the bridge projects it into an AgInput (§3,
 * §13: a front door must not let one request exhaust memory or the stack). Each cap has a default and
 * a hard maximum; options may narrow a cap or widen it up to the hard maximum, never beyond, so a
 * misconfigured server fails at start-up rather than accepting unbounded input. docs/bridges/ag-ui.md
 * "Input caps" has the table and the reasons for the numbers.
 */

/** The caps of one RunAgentInput. Byte sizes are of the value's JSON text, UTF-8. */
export interface AgUiInputCaps {
  /** The request body, bytes (refused with 413 before it is parsed). */
  maxBodyBytes: number;
  /** Nesting of arrays and objects in the whole body (400, checked before parsing). */
  maxDepth: number;
  /** `messages` entries. */
  maxMessages: number;
  /** `tools` entries. */
  maxTools: number;
  /** `context` entries. */
  maxContext: number;
  /** `resume` entries (answers to interrupts, §7). */
  maxResume: number;
  /** `state`, bytes. */
  maxStateBytes: number;
  /** One tool declaration (name, description, parameters schema), bytes. */
  maxToolBytes: number;
  /** One context entry, bytes. */
  maxContextBytes: number;
  /** `forwardedProps`, bytes, when they are projected at all. */
  maxForwardedPropsBytes: number;
}

/** Defaults: a long multimodal-free conversation fits; a runaway client does not. */
export const DEFAULT_AG_UI_INPUT_CAPS: Readonly<AgUiInputCaps> = Object.freeze({
  maxBodyBytes: 1 << 20,
  maxDepth: 32,
  maxMessages: 128,
  maxTools: 32,
  maxContext: 32,
  maxResume: 8,
  maxStateBytes: 64 << 10,
  maxToolBytes: 16 << 10,
  maxContextBytes: 16 << 10,
  maxForwardedPropsBytes: 16 << 10,
});

/** Hard maxima: no option raises a cap past these. */
export const HARD_AG_UI_INPUT_CAPS: Readonly<AgUiInputCaps> = Object.freeze({
  maxBodyBytes: 16 << 20,
  maxDepth: 64,
  maxMessages: 1024,
  maxTools: 256,
  maxContext: 256,
  maxResume: 64,
  maxStateBytes: 1 << 20,
  maxToolBytes: 256 << 10,
  maxContextBytes: 256 << 10,
  maxForwardedPropsBytes: 256 << 10,
});

/** A cap option that is not a positive integer within its hard maximum. */
export class AgUiCapError extends RangeError {
  override readonly name = "AgUiCapError";
}

/** The caps in force: defaults overridden by `partial`; throws AgUiCapError on a value out of range. */
export function resolveAgUiInputCaps(partial: Partial<AgUiInputCaps> = {}): AgUiInputCaps {
  const caps: AgUiInputCaps = { ...DEFAULT_AG_UI_INPUT_CAPS };
  for (const key of Object.keys(DEFAULT_AG_UI_INPUT_CAPS) as (keyof AgUiInputCaps)[]) {
    const value = partial[key];
    if (value === undefined) continue;
    const hard = HARD_AG_UI_INPUT_CAPS[key];
    if (!Number.isInteger(value) || value < 1 || value > hard) {
      throw new AgUiCapError(`${key} must be an integer from 1 to ${hard} (got ${String(value)})`);
    }
    caps[key] = value;
  }
  for (const key of Object.keys(partial)) {
    if (!Object.hasOwn(DEFAULT_AG_UI_INPUT_CAPS, key))
      throw new AgUiCapError(`unknown AG-UI input cap "${key}"; known: ${Object.keys(DEFAULT_AG_UI_INPUT_CAPS).join(", ")}`);
  }
  return caps;
}

/**
 * Where `startAgUiServer` (and `agjson serve --agui`) listens when told nothing: loopback only, on
 * a fixed port. Kept in this dependency-free module so the CLI's help reads it without loading the
 * AG-UI peer (docs/bridges/ag-ui.md "Running it safely").
 */
export const AG_UI_SERVER_DEFAULTS = { port: 8788, host: "127.0.0.1" } as const;
