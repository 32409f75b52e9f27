/**
 * The shape of a command's handler (server/cli/dispatch.ts routes to it).
 *
 * @module
 */
import type { Asset } from "../http.ts";
import type { ParsedArgs } from "./parse.ts";

/** What handlers may need besides their arguments. */
export interface CliContext {
  /**
   * Loads the embedded client (static/gen/assets.ts, 0.3 MB): only the
   * commands that serve or install it pay for it.
   */
  readonly assets: () => Promise<Readonly<Record<string, Asset>>>;
}

/** Runs a parsed command line; resolves with the exit status. */
export type Handler = (args: ParsedArgs, ctx: CliContext) => Promise<number>;
