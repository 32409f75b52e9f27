/**
 * The control socket's journal request: `{op: "restore", which}`
 * (`domterm restore N|all`). Listing and forgetting need no server: the
 * CLI reads the journal directory itself (server/commands/journal.ts).
 *
 * @module
 */
import type { ControlRequest, ControlResponse } from "../control.ts";
import type { DomtermServer } from "../http.ts";
import { pickJournals, restorableJournals } from "./restorable.ts";
import { restoreEntry } from "./restore.ts";

/** The answer to a journal request, or null for another request. */
export async function journalControl(
  server: DomtermServer,
  req: ControlRequest,
): Promise<ControlResponse | null> {
  if (req.op !== "restore") return null;
  const root = server.registry.journalRoot;
  if (root === undefined) {
    return { ok: false, error: "this server keeps no journals" };
  }
  let picked;
  try {
    picked = pickJournals(await restorableJournals(root), req.which);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  const restored: number[] = [];
  const problems: string[] = [];
  for (const { entry, info } of picked) {
    try {
      restored.push((await restoreEntry(server.registry, entry)).id);
    } catch (e) {
      problems.push(`${info.n} (${info.path}): ${(e as Error).message}`);
    }
  }
  if (restored.length === 0) {
    return { ok: false, error: `nothing restored: ${problems.join("; ")}` };
  }
  return { ok: true, restored, problems };
}
