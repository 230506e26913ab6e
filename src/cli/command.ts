/**
 * What every `<name>-command.ts` exports for `main.ts` (docs/cli.md "How the commands load"): kept
 * apart from main.ts so the command modules import only this, and main.ts only them (no cycle).
 */
import type { Command } from "commander";

/** Adds a command's arguments, options and action to its (already named and described) command. */
export type DefineCommand = (cmd: Command, setExitCode: (code: number) => void) => void | Promise<void>;
