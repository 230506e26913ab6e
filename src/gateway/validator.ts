/**
 * The validation seam of the gateway. The gateway never compiles schemas: it calls the posture API of
 * `src/validate` (the generated standalone validators, DESIGN §4–5) through this interface, which
 * callers may replace (tests, a different schema build, a policy layer).
 */

export type Posture = "strict" | "lenient";

/** One validation issue: JSON Pointer of the field, what failed, the schema keyword. */
export interface ValidationIssue {
  path: string;
  message: string;
  keyword: string;
}

export type ValidationResult =
  | { ok: true; event: unknown; known: boolean }
  | { ok: false; errors: ValidationIssue[] };

/** `validateInput` result; the value a successful call carries is not needed by the gateway. */
export type InputValidationResult = { ok: true } | { ok: false; errors: ValidationIssue[] };

export type VersionResult = { ok: true } | { ok: false; message: string };

/** The three calls the gateway makes; `src/validate/index.ts` exports functions of these shapes. */
export interface GatewayValidator {
  validateEvent(x: unknown, opts?: { posture?: Posture }): ValidationResult;
  validateInput(x: unknown, opts?: { posture?: Posture }): InputValidationResult;
  negotiateVersion(version: string): VersionResult;
}

interface ValidateModule {
  validateEvent?: GatewayValidator["validateEvent"];
  validateInput?: GatewayValidator["validateInput"];
  negotiateVersion?: GatewayValidator["negotiateVersion"];
}

let cached: Promise<GatewayValidator> | undefined;

/**
 * Loads the package's own validators from `src/validate` once. Imported lazily so that importing the
 * gateway costs nothing until a stream or request is validated.
 */
export function loadDefaultValidator(): Promise<GatewayValidator> {
  cached ??= importValidateModule().then((mod) => {
    const { validateEvent, validateInput, negotiateVersion } = mod;
    if (!validateEvent || !validateInput || !negotiateVersion) {
      throw new Error(
        "agjson gateway: ../validate/index.js does not export validateEvent, validateInput and negotiateVersion; pass `validator` explicitly",
      );
    }
    return { validateEvent, validateInput, negotiateVersion };
  });
  return cached;
}

async function importValidateModule(): Promise<ValidateModule> {
  // A computed specifier keeps the type checker and bundlers from requiring src/validate to exist
  // before it is built; it is resolved relative to this module at run time.
  const specifier = new URL("../validate/index.js", import.meta.url).href;
  try {
    return (await import(specifier)) as ValidateModule;
  } catch (cause) {
    throw new Error(
      `agjson gateway: cannot load the default validator (${specifier}); build src/validate or pass \`validator\``,
      { cause },
    );
  }
}
