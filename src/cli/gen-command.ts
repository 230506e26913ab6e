/** `agjson gen [--check]` (DESIGN §6): exit 0 when current, 1 on drift. */
export async function genCommand(check: boolean): Promise<number> {
  // The generator and its dependencies are dev-time only: resolved lazily from codegen/.
  const { runGen, REGENERATE } = await import("../../codegen/gen.js");
  try {
    const { changed, removed } = await runGen({ check });
    if (check) {
      if (changed.length === 0 && removed.length === 0) {
        process.stdout.write("agjson gen --check: generated/ is current\n");
        return 0;
      }
      for (const p of changed) process.stderr.write(`stale: ${p}\n`);
      for (const p of removed) process.stderr.write(`not generated any more: ${p}\n`);
      process.stderr.write(`generated/ is out of date with schema/; run \`${REGENERATE}\` and commit the result\n`);
      return 1;
    }
    for (const p of changed) process.stdout.write(`wrote ${p}\n`);
    for (const p of removed) process.stdout.write(`removed ${p}\n`);
    if (changed.length === 0 && removed.length === 0) process.stdout.write("generated/ was already current\n");
    return 0;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 1;
  }
}
