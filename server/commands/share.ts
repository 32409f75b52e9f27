/**
 * `domterm share N [--read-only]`: ask the running server for a link that
 * opens session N, and only it, without the password; print it.
 *
 * @module
 */
import { flag, type ParsedArgs } from "../cli/parse.ts";
import { ask, ref } from "./sessions.ts";

/** `domterm share`. */
export async function share(a: ParsedArgs): Promise<number> {
  const readOnly = flag(a, "read-only");
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
}
