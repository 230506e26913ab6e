// §5 artifact rows: the A2A artifact side-channel (AgReduceResult.artifacts, never content).
// artifact.start opens (idempotent on artifactId: one artifact per id, §10 item 16),
// artifact.delta `append:false` starts a new part and `append:true` concatenates onto the last part,
// artifact.end seals.

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import type { AgArtifactDeltaEvent, AgArtifactEndEvent, AgArtifactStartEvent } from "../../generated/lenient-types.js";
import type { ArtifactState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { dropUndefined } from "./json.js";

/** artifact.start: open the artifact, or merge into (and re-open) the one already keyed by `artifactId`. */
export function foldArtifactStart(state: ReduceState, event: AgArtifactStartEvent): void {
  state.noteThread(event.threadId);
  const existing = state.artifacts.get(event.artifactId);
  const base = dropUndefined({
    ...existing?.base,
    artifactId: event.artifactId,
    turnId: event.turnId,
    threadId: event.threadId,
    name: event.name ?? existing?.base.name,
    description: event.description ?? existing?.base.description,
    extensions: event.extensions ?? existing?.base.extensions,
  });
  if (existing !== undefined) {
    existing.base = base;
    existing.sealed = false;
    existing.view = undefined;
    return;
  }
  const artifact: ArtifactState = { base, parts: [], sealed: false, view: undefined };
  state.artifacts.set(event.artifactId, artifact);
  state.artifactOrder.push(artifact);
}

function openArtifact(state: ReduceState, artifactId: string): ArtifactState | undefined {
  const artifact = state.artifacts.get(artifactId);
  if (artifact === undefined) {
    state.fail(
      "ARTIFACT",
      `${state.current.type} names artifact "${artifactId}", which was never opened; open it with artifact.start (or seed it via messages.snapshot.artifacts) — resync with messages.snapshot.`,
    );
    return undefined;
  }
  return artifact;
}

/**
 * artifact.delta: `append:false` starts a new part; `append:true` concatenates onto the last part.
 * Concatenation is defined for text onto text (the strings join); any other pair, or an artifact
 * with no part yet, appends the part as a new one.
 */
export function foldArtifactDelta(state: ReduceState, event: AgArtifactDeltaEvent): void {
  const artifact = openArtifact(state, event.artifactId);
  if (artifact === undefined) return;
  if (artifact.sealed) {
    state.fail(
      "ARTIFACT",
      `artifact.delta for artifact "${event.artifactId}" after artifact.end sealed it; re-open it with artifact.start — the part was not folded.`,
    );
    return;
  }
  const { part } = event;
  const last = artifact.parts[artifact.parts.length - 1];
  // An unknown block type (§0.2, §12) is never concatenated onto: it lands as a part of its own.
  if (
    event.append &&
    last !== undefined &&
    isKnownBlock(last.block) &&
    last.block.type === "text" &&
    isKnownBlock(part) &&
    part.type === "text"
  ) {
    last.text = (last.text ?? last.block.text) + part.text;
  } else {
    artifact.parts.push({ block: part, text: undefined });
  }
  artifact.view = undefined;
}

/** artifact.end: seal the artifact (a later artifact.start re-opens it). */
export function foldArtifactEnd(state: ReduceState, event: AgArtifactEndEvent): void {
  const artifact = openArtifact(state, event.artifactId);
  if (artifact === undefined) return;
  artifact.sealed = true;
}

/** The artifact family's §5 rows. */
export const ARTIFACT_FOLD: FamilyFoldHandlers<"artifact", ReduceState> = {
  "artifact.start": foldArtifactStart,
  "artifact.delta": foldArtifactDelta,
  "artifact.end": foldArtifactEnd,
};
