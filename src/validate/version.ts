/**
 * Version negotiation (§12): a consumer rejects an envelope whose version differs in MAJOR and
 * accepts any same-major version, prereleases (`-draft.*`) included.
 */
import { SPEC_VERSION, SPEC_VERSION_PATTERN } from "../../generated/schema-facts.js";

export { SPEC_VERSION };
/** The major this implementation speaks: the schema's own. */
const SUPPORTED_MAJOR = Number(SPEC_VERSION.split(".")[0]);

export type VersionVerdict = { ok: true; major: number; minor: number; patch: number } | { ok: false; message: string };

export function negotiateVersion(version: unknown): VersionVerdict {
  if (typeof version !== "string") return { ok: false, message: `version must be a semver string such as "${SPEC_VERSION}"` };
  const m = SPEC_VERSION_PATTERN.exec(version);
  if (!m) return { ok: false, message: `version "${version}" is not a semantic version (e.g. "${SPEC_VERSION}")` };
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (major !== SUPPORTED_MAJOR) {
    return {
      ok: false,
      message: `version "${version}" has major ${major}; this implementation speaks AgJSON ${SUPPORTED_MAJOR}.x (${SPEC_VERSION}) and must reject other majors (§12)`,
    };
  }
  return { ok: true, major, minor, patch };
}
