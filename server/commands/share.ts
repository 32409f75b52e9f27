/**
 * `domterm share N [--read-only]`: ask the running server for a link that
 * opens session N, and only it, without the password; print it.
 *
 * @module
 */
import type { Command } from "./mod.ts";
import { ask, ref } from "./sessions.ts";
import { parseArgs, UsageError } from "./tty.ts";

/** `domterm share`. */
export const share: Command = {
  usage: "domterm share N|NAME [--read-only]",
  async run(argv) {
    const a = parseArgs(argv, ["--read-only"], []);
    if (a.operands.length > 1) {
      throw new UsageError("share takes one session");
    }
    const readOnly = a.flags.has("--read-only");
    const res = await ask({
      op: "share",
      session: ref(a.operands[0], "give its number from 'domterm list'"),
      readOnly,
    });
    console.log(res.url);
    console.error(
      `domterm share: anyone with this link can ${
        readOnly ? "watch" : "use"
      } session ${res.session} until the server or the session ends`,
    );
    return 0;
  },
};
