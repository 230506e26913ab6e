/**
 * The object-graph check run before a value handed in as an object is validated (§13): a JSON
 * value is a finite tree, so a cycle, or nesting past the depth cap, is refused with the JSON
 * Pointer where it was found. Text goes through `parseCapped`, whose scan caps depth before
 * parsing; an object never passed through text needs this walk instead. The walk recurses at most
 * `maxDepth` levels, so it cannot exhaust the stack itself. A throwing getter or Proxy trap
 * propagates to the caller, which turns it into a typed issue.
 */
import { pointerToken } from "./issues.js";

/** Where and why a value is not a JSON tree; `undefined` when it is one within the cap. */
export interface GraphProblem {
  path: string;
  /** `cap` for nesting past the cap (as `parseCapped` reports it), `structure` for a cycle. */
  keyword: "cap" | "structure";
  message: string;
}

export function inspectGraph(root: unknown, maxDepth: number): GraphProblem | undefined {
  if (typeof root !== "object" || root === null) return undefined;
  const ancestors: object[] = [];
  const visit = (node: object, path: string): GraphProblem | undefined => {
    if (ancestors.length >= maxDepth) {
      return { path, keyword: "cap", message: `nests deeper than the ${maxDepth}-level cap (§13); _meta and other opaque values count` };
    }
    if (ancestors.includes(node)) return { path, keyword: "structure", message: "is a cycle: it contains itself, which no JSON text can (§0.1)" };
    ancestors.push(node);
    if (Array.isArray(node)) {
      const length = node.length;
      for (let i = 0; i < length; i++) {
        const item: unknown = node[i];
        if (typeof item === "object" && item !== null) {
          const found = visit(item, `${path}/${i}`);
          if (found !== undefined) return found;
        }
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (typeof item === "object" && item !== null) {
          const found = visit(item, `${path}/${pointerToken(key)}`);
          if (found !== undefined) return found;
        }
      }
    }
    ancestors.pop();
    return undefined;
  };
  return visit(root, "");
}
