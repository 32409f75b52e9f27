/**
 * Which server wrote a journal, and whether it still runs: a journal
 * whose server is alive belongs to that server's live session, and is
 * neither restorable nor to be forgotten. A process id alone is not
 * enough (after a reboot another process may have it): the boot id and
 * the process's start time must match too.
 *
 * @module
 */
import type { JournalServer } from "./format.ts";

function readText(path: string): string {
  try {
    return Deno.readTextFileSync(path).trim();
  } catch {
    return "";
  }
}

/** The start time of process `pid` in clock ticks since boot, or "" (no /proc, or no such process). */
function startTicks(pid: number): string {
  const stat = readText(`/proc/${pid}/stat`);
  // The command name (field 2) is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[19] ?? "";
}

let self: JournalServer | null = null;

/** This server process. */
export function thisServer(): JournalServer {
  self ??= {
    pid: Deno.pid,
    boot: readText("/proc/sys/kernel/random/boot_id"),
    start: startTicks(Deno.pid),
  };
  return self;
}

/** Whether the server that wrote a journal still runs (this one included). */
export function serverAlive(s: JournalServer): boolean {
  if (typeof s?.pid !== "number") return false;
  const me = thisServer();
  if (s.boot !== me.boot) return false;
  if (s.pid === me.pid) return s.start === me.start;
  const start = startTicks(s.pid);
  return start !== "" && start === s.start;
}
