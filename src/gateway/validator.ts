/**
 * The validation seam of the gateway. The gateway never compiles schemas: it calls the posture API of
 * `src/validate` (the generated standalone validators of both postures, §0.2; docs/validation.md) through this interface, which
 * callers may replace (tests, a different schema build, a policy layer).
 */

export type Posture = "strict" | "lenient";

/** One validation issue: JSON Pointer of the field, what failed, the schema keyword, the spec section. */
export interface ValidationIssue {
  path: string;
  message: string;
  keyword: string;
  spec?: string;
}

export type ValidationResult = { ok: true; event: unknown; known: boolean } | { ok: false; errors: ValidationIssue[] };

/** `validateInput` result; the value a successful call carries is not needed by the gateway. */
export type InputValidationResult = { ok: true } | { ok: false; errors: ValidationIssue[] };

export type VersionResult = { ok: true } | { ok: false; message: string };

/** The three calls the gateway makes; `src/validate/index.ts` exports functions of these shapes. */
export interface GatewayValidator {
  /** `parsed`: the value is fresh from `JSON.parse` of depth-capped text (see `CheckOptions.parsed`). */
  validateEvent(x: unknown, opts?: { posture?: Posture; parsed?: boolean }): ValidationResult;
  validateInput(x: unknown, opts?: { posture?: Posture; parsed?: boolean }): InputValidationResult;
  negotiateVersion(version: string): VersionResult;
}

let cached: Promise<GatewayValidator> | undefined;
let loaded: GatewayValidator | undefined;

/**
 * Loads the package's own validators (`src/validate`, over the generated standalone validators)
 * once. Imported lazily so that importing the gateway costs nothing until something is validated.
 */
export function loadDefaultValidator(): Promise<GatewayValidator> {
  cached ??= import("../validate/index.js").then(({ validateEvent, validateInput, negotiateVersion }) => {
    loaded = { validateEvent, validateInput, negotiateVersion };
    return loaded;
  });
  return cached;
}

/**
 * Whether `validate` is the package's own `validateEvent`, as far as can be told without loading it
 * (false when the default validator was never loaded). The byte-level fast path stands in for that
 * validator only: an injected one may be stricter, so it sees every event.
 */
export function isDefaultEventValidator(validate: GatewayValidator["validateEvent"]): boolean {
  return loaded !== undefined && validate === loaded.validateEvent;
}
