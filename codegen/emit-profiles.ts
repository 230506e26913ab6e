/**
 * Emitter: the §9 profile tables, read from `x-agjson-profile`. Profiles nest
 * (CORE ⊂ EXTENDED ⊂ ADVANCED); `ext.*` is profile-agnostic.
 */
import type { BlockEntry, EventEntry } from "./event-table.js";

const q = (s: string) => JSON.stringify(s);
const ORDER = ["CORE", "EXTENDED", "ADVANCED"] as const;

export function emitProfiles(events: EventEntry[], blocks: BlockEntry[], banner: string): string {
  const out: string[] = [banner];
  out.push("/** A §9 conformance profile; each includes the ones before it. */");
  out.push(`export type AgProfileName = ${ORDER.map(q).join(" | ")};`, "");
  out.push(`export const PROFILES: readonly AgProfileName[] = [${ORDER.map(q).join(", ")}];`, "");
  out.push("/** The profile that introduces each named event type (§9). */");
  out.push(
    `export const EVENT_PROFILE: { readonly [type: string]: AgProfileName } = {\n${events.map((e) => `  ${q(e.type)}: ${q(e.profile)},`).join("\n")}\n};`,
    "",
  );
  out.push("/** The profile that introduces each block type (§9). */");
  out.push(
    `export const BLOCK_PROFILE: { readonly [type: string]: AgProfileName } = {\n${blocks.map((b) => `  ${q(b.type)}: ${q(b.profile)},`).join("\n")}\n};`,
    "",
  );
  for (const p of ORDER) {
    const upTo = ORDER.slice(0, ORDER.indexOf(p) + 1) as readonly string[];
    out.push(`/** Event types a ${p} implementation handles (cumulative). */`);
    out.push(
      `export const ${p}_EVENT_TYPES: readonly string[] = [\n${events
        .filter((e) => upTo.includes(e.profile))
        .map((e) => `  ${q(e.type)},`)
        .join("\n")}\n];`,
      "",
    );
    out.push(`/** Block types a ${p} implementation handles (cumulative). */`);
    out.push(
      `export const ${p}_BLOCK_TYPES: readonly string[] = [\n${blocks
        .filter((b) => upTo.includes(b.profile))
        .map((b) => `  ${q(b.type)},`)
        .join("\n")}\n];`,
      "",
    );
  }
  out.push("/** Whether `profile` admits an event type; `ext.*` is admitted by every profile (§9). */");
  out.push("export function eventInProfile(type: string, profile: AgProfileName): boolean {");
  out.push('  if (type.startsWith("ext.")) return true;');
  out.push("  const p = EVENT_PROFILE[type];");
  out.push("  return p !== undefined && PROFILES.indexOf(p) <= PROFILES.indexOf(profile);");
  out.push("}", "");
  out.push("/** Whether `profile` admits a block type (§9). */");
  out.push("export function blockInProfile(type: string, profile: AgProfileName): boolean {");
  out.push("  const p = BLOCK_PROFILE[type];");
  out.push("  return p !== undefined && PROFILES.indexOf(p) <= PROFILES.indexOf(profile);");
  out.push("}", "");
  return out.join("\n");
}
