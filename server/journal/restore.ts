/**
 * Bringing sessions back from their journals: the model as it was
 * (loadJournal), the modes a program left on reset, a divider saying when
 * and why the old program ended, and a new program in the same directory
 * (the shell at once; any other command shown and run on Enter, or never:
 * the `restore.commands` setting). The restored session gets a journal of
 * its own (starting from that model) before the old one is removed.
 *
 * @module
 */
import { basename } from "node:path";
import type { Terminal } from "../../core/emulator/terminal.ts";
import type { BuiltTerminal } from "../emulator_host.ts";
import type { Session } from "../session.ts";
import type { NewSessionExtra } from "../session_registry.ts";
import {
  type JournalEntry,
  loadBuiltJournal,
  markBroken,
  removeJournal,
  scanJournals,
} from "./reader.ts";

/** What a restore needs of the server's sessions (the registry's). */
export interface RestoreTarget {
  create(
    command: string[],
    size: { cols: number; rows: number },
    extra: NewSessionExtra,
  ): Session;
  find(ref: string): Session | null;
  /** The command line of a new session that names none (the user's shell). */
  defaultCommand(): string[];
  /** The `restore.commands` setting. */
  restoreCommands(): "ask" | "never";
  /** Resolves once `session`'s own journal has its first snapshot on disk. */
  journalSettled(session: Session): Promise<void>;
}

/** Programs that are shells: restored at once. */
const SHELLS = new Set([
  "sh",
  "bash",
  "zsh",
  "fish",
  "dash",
  "ksh",
  "mksh",
  "tcsh",
  "csh",
  "nu",
  "elvish",
  "xonsh",
]);

/**
 * Whether `command` runs an interactive shell (a shell with options only:
 * `sh -c '...'` or `bash script.sh` runs a command).
 */
export function isShell(command: string[]): boolean {
  const [program, ...args] = command;
  return SHELLS.has(basename(program).replace(/^-/, "")) &&
    args.every((a) => a.startsWith("-") && a !== "-c");
}

/** `args` as a shell would need them typed (for the prompt and the divider). */
export function shellWords(args: string[]): string {
  return args.map((a) =>
    /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`
  ).join(" ");
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** `at` as the divider says it: the time, and the date unless it is today. */
export function stoppedAtText(at: number, now = Date.now()): string {
  const d = new Date(at);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${
    pad(d.getSeconds())
  }`;
  const today = new Date(now).toDateString() === d.toDateString();
  return today
    ? time
    : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** Why the old session stopped, as the divider and `list --restorable` say it. */
export function stopReason(entry: JournalEntry): string {
  const ended = entry.meta?.ended;
  return ended ? ended.reason : "the server stopped";
}

/**
 * After the old stream: end a sequence cut short (CAN), leave the
 * alternate screen, a soft reset (rendition, margins, cursor shown, keypad
 * and cursor keys, charsets), mouse reports, focus reports and bracketed
 * paste off; then the divider on a line of its own.
 */
export function dividerBytes(term: Terminal, text: string): string {
  const alt = term.buffer !== term.normalBuffer ? "\x1b[?1049l" : "";
  const reset = `\x18${alt}\x1b[!p\x1b[?1000;1002;1003;1006;1015;1004;2004l`;
  const nl = term.cursorX > 0 || term.wrapPending ? "\r\n" : "";
  return `${reset}${nl}\x1b[2K\x1b[2;3m── ${text} ──\x1b[0m\r\n`;
}

/** What to start in the restored session: the command line, and what the divider adds. */
function program(
  target: RestoreTarget,
  command: string[],
): { run: string[]; note: string } {
  if (isShell(command)) return { run: command, note: "" };
  const usual = target.defaultCommand();
  const shell = isShell(usual) ? usual : [Deno.env.get("SHELL") || "/bin/sh"];
  const words = shellWords(command);
  if (target.restoreCommands() === "never") {
    return { run: shell, note: ` (not run again: ${words})` };
  }
  // Shown, and run on Enter (Ctrl+D or Ctrl+C: not run, the session ends).
  const prompt = `\x1b[1mPress Enter to run:\x1b[0m ${words} `;
  const script = `printf '%s' "$1"; shift; IFS= read -r _ || exit 0; exec "$@"`;
  return { run: ["/bin/sh", "-c", script, "sh", prompt, ...command], note: "" };
}

/** Whether `dir` is a directory now. */
async function isDir(dir: string | null): Promise<boolean> {
  if (dir === null) return false;
  return await Deno.stat(dir).then((s) => s.isDirectory, () => false);
}

/**
 * Restore `entry` as a new session of `target`. Resolves with it; throws
 * an Error saying why not (a journal that does not load is marked so, and
 * `list --restorable` shows the reason).
 */
export async function restoreEntry(
  target: RestoreTarget,
  entry: JournalEntry,
): Promise<Session> {
  const meta = entry.meta;
  if (meta === null || entry.problem !== null) {
    throw new Error(entry.problem ?? "no meta.json");
  }
  let built: BuiltTerminal;
  try {
    built = await loadBuiltJournal(entry);
  } catch (e) {
    await markBroken(entry, (e as Error).message);
    throw e;
  }
  const term = built.terminal;
  const { run, note } = program(target, meta.command);
  const cwdOk = await isDir(meta.cwd);
  const gone = meta.cwd !== null && !cwdOk ? ` (${meta.cwd} is gone)` : "";
  term.write(dividerBytes(
    term,
    `session restored: ${stopReason(entry)} at ${
      stoppedAtText(entry.stoppedAt)
    }${note}${gone}`,
  ));
  const name = meta.name !== null && target.find(meta.name) === null
    ? meta.name
    : undefined;
  const session = target.create(run, { cols: term.cols, rows: term.rows }, {
    cwd: cwdOk ? meta.cwd! : undefined,
    name,
    // The session's emulator takes the terminal as it is (parsed once);
    // its new journal starts from this snapshot's JSON.
    initialSnapshot: JSON.stringify(term.snapshot()),
    initialTerminal: built,
    journalCommand: meta.command,
  });
  await target.journalSettled(session);
  await removeJournal(entry);
  return session;
}

/**
 * At the server's start: restore every journal of a session lost by a
 * crash, a logout or a reboot (not one ended by `domterm kill-server`:
 * that waits for `domterm restore`). Journals that cannot be read are
 * reported with their path and skipped. Resolves with the sessions;
 * `byJournal` (when given) gets each journal directory's name -> the
 * session restored from it (for the windows' layouts: windows.ts).
 */
export async function restoreAtStart(
  target: RestoreTarget,
  root: string,
  log: (message: string) => void,
  byJournal?: Map<string, number>,
): Promise<Session[]> {
  const out: Session[] = [];
  for (const entry of await scanJournals(root)) {
    if (entry.live) continue;
    if (entry.problem !== null) {
      log(`journal ${entry.dir}: ${entry.problem}; not restored`);
      continue;
    }
    if (entry.meta!.ended !== null && !entry.meta!.ended.auto) continue;
    try {
      out.push(await restoreEntry(target, entry));
      byJournal?.set(entry.id, out.at(-1)!.id);
      log(
        `restored session ${out.at(-1)!.id} from ${entry.dir} (${
          shellWords(entry.meta!.command)
        })`,
      );
    } catch (e) {
      log(`journal ${entry.dir}: ${(e as Error).message}; not restored`);
    }
  }
  return out;
}
