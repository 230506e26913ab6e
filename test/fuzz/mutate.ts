/** Shared by the facet fuzz targets: a real chunk with one field set to arbitrary JSON. */

/** Replaces the value at one path inside a chunk (a field of a real event set to arbitrary JSON). */
export function mutateAt(chunk: unknown, pick: number, value: unknown): unknown {
  const paths: (string | number)[][] = [];
  const walk = (x: unknown, path: (string | number)[]): void => {
    if (path.length > 6 || typeof x !== "object" || x === null) return;
    for (const [k, v] of Array.isArray(x) ? x.entries() : Object.entries(x)) {
      paths.push([...path, k]);
      walk(v, [...path, k]);
    }
  };
  walk(chunk, []);
  if (paths.length === 0) return value;
  const path = paths[pick % paths.length]!;
  const copy: unknown = structuredClone(chunk);
  let at = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  at[path[path.length - 1]!] = value;
  return copy;
}
