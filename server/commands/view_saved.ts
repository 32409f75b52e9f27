/**
 * `domterm view-saved FILE`: open a session saved as HTML (Ctrl+Shift+S in
 * a window, core/serialize/html.ts) in an app window of the browser that
 * domterm uses for its terminal windows (server/browser.ts), else with the
 * system opener. Needs no server: the file is standalone.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  APP_SWITCHES,
  type BrowserChoice,
  chooseBrowser,
  configDir,
} from "../browser.ts";
import { type ParsedArgs, text } from "../cli/parse.ts";
import { CommandError } from "../cli/errors.ts";

/** How much of the file's start is read to recognise it. */
const HEAD_BYTES = 4096;

/**
 * Why `head` (the start of a file) is not a session saved by domterm, or
 * null when it is one: an HTML document marked as domterm's whose Content
 * Security Policy comes before its content (so no script of it runs).
 */
export function notSavedReason(head: string): string | null {
  if (!/^\s*<!DOCTYPE html>/i.test(head)) return "not an HTML document";
  const csp = head.indexOf('<meta http-equiv="Content-Security-Policy"');
  const gen = head.indexOf('<meta name="generator" content="domterm">');
  if (csp < 0 || gen < csp) {
    return "not a session saved by domterm (Ctrl+Shift+S in a domterm window)";
  }
  return null;
}

/** The command that opens `url` with `choice` (no side effects). */
export function viewCommand(
  url: string,
  choice: BrowserChoice,
  profileDir = join(configDir(), "browser-profile"),
): { path: string; args: string[] } {
  if (choice.kind === "opener") return { path: choice.path, args: [url] };
  return {
    path: choice.path,
    args: [
      `--app=${url}`,
      `--user-data-dir=${profileDir}`,
      "--window-size=900,600",
      "--no-first-run",
      "--no-default-browser-check",
      ...APP_SWITCHES,
    ],
  };
}

/** The `view-saved` subcommand. */
export async function viewSaved(a: ParsedArgs): Promise<number> {
  const path = resolve(a.operands[0]);
  let head: string;
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) throw new CommandError(`${path}: is a directory`);
    const file = await Deno.open(path, { read: true });
    try {
      const buf = new Uint8Array(HEAD_BYTES);
      const n = await file.read(buf) ?? 0;
      head = new TextDecoder().decode(buf.subarray(0, n));
    } finally {
      file.close();
    }
  } catch (e) {
    if (e instanceof CommandError) throw e;
    if (e instanceof Deno.errors.NotFound) {
      throw new CommandError(`${path}: no such file`);
    }
    throw new CommandError(`${path}: ${(e as Error).message}`);
  }
  const why = notSavedReason(head);
  if (why !== null) throw new CommandError(`${path}: ${why}`);
  let choice: BrowserChoice;
  try {
    choice = chooseBrowser(text(a, "browser"));
  } catch (e) {
    throw new CommandError((e as Error).message);
  }
  const cmd = viewCommand(pathToFileURL(path).href, choice);
  try {
    const child = new Deno.Command(cmd.path, {
      args: cmd.args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    child.status.catch(() => {});
  } catch (e) {
    throw new CommandError(
      `cannot start ${cmd.path}: ${(e as Error).message}`,
    );
  }
  return 0;
}
