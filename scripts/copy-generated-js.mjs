// tsc does not copy the generated validators (plain .js with .d.ts beside them) into dist/;
// the compiled library imports them from there, so the build copies them.
import { cpSync, mkdirSync, readdirSync } from "node:fs";

const from = new URL("../generated/validators/", import.meta.url);
const to = new URL("../dist/generated/validators/", import.meta.url);
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)) {
  if (name.endsWith(".js") || name.endsWith(".d.ts")) cpSync(new URL(name, from), new URL(name, to));
}
