/**
 * The shape of a command's handler (server/cli/dispatch.ts routes to it).
 *
 * @module
 */
import type { Asset } from "../http.ts";
import type { ParsedArgs } from "./parse.ts";

/** What handlers may need besides their arguments. */
export interface CliContext {
  /** The embedded client (static/gen/assets.ts). */
  readonly assets: Readonly<Record<string, Asset>>;
}

/** Runs a parsed command line; resolves with the exit status. */
export type Handler = (args: ParsedArgs, ctx: CliContext) => Promise<number>;
