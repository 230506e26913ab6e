/**
 * The provider recordings the provider-source tests replay through the shared loopback provider
 * (src/reinput/loopback.test-support.ts, re-exported here for the bridge's and the CLI's tests).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readNativeChunks } from "../../normalize/index.js";
import { REPO } from "../ag-ui/ag-ui.test-support.js";

export {
  startProviderLoopback,
  type ProviderAnswer,
  type ProviderLoopback,
  type ProviderRequestSeen,
} from "../../reinput/loopback.test-support.js";

/** The native chunks of a recording under fixtures/providers. */
export function providerRecording(file: string): unknown[] {
  return readNativeChunks(readFileSync(join(REPO, "fixtures/providers", file), "utf8"));
}
