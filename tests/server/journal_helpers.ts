/**
 * Helpers of the journal tests: a registry whose sessions keep journals
 * in a private directory, and waiting for a condition.
 *
 * @module
 */
import { SessionRegistry } from "../../server/session_registry.ts";
import { SettingsStore } from "../../server/settings/file.ts";
import type { Settings } from "../../core/settings/schema.ts";

/** A registry of `/bin/sh` sessions journaled under a new private root. */
export function journaledRegistry(
  settings: Partial<Settings> = {},
): { registry: SessionRegistry; root: string; logs: string[] } {
  const base = Deno.makeTempDirSync({ prefix: "domterm-journal-test-" });
  const root = `${base}/state/domterm/journal`;
  const store = new SettingsStore(null, settings, () => {});
  store.load();
  const logs: string[] = [];
  const registry = new SessionRegistry({
    command: "/bin/sh",
    args: [],
    shellIntegration: false,
    journalRoot: root,
    log: (m) => logs.push(m),
  }, store);
  return { registry, root, logs };
}

/** Resolves once `cond()` holds; fails after `ms`. */
export async function until(
  cond: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = "condition",
): Promise<void> {
  const end = performance.now() + ms;
  while (!(await cond())) {
    if (performance.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The names of the files in `dir` (none when it is gone). */
export function files(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** A real `domterm --no-browser -- /bin/sh` server process, its stderr kept. */
export interface ServerProcess {
  child: Deno.ChildProcess;
  url: URL;
  key: string;
  stderr: () => string;
}

/** Start a server process with `env`; resolves once it printed its URL. */
export async function startLoggedServer(
  env: Record<string, string>,
): Promise<ServerProcess> {
  const { child, stderr } = spawnLoggedServer(env, [
    "--no-browser",
    "--",
    "/bin/sh",
  ]);
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`domterm exited: ${text} ${stderr()}`);
    text += value;
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  const url = new URL(text.split("\n")[0]);
  const key = new URLSearchParams(url.hash.slice(1)).get("key")!;
  return { child, url, key, stderr };
}

/** `domterm ARGS` as a server process, its stderr kept (stdout piped: the caller reads it). */
export function spawnLoggedServer(
  env: Record<string, string>,
  args: string[],
): { child: Deno.ChildProcess; stderr: () => string } {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  (async () => {
    for await (const t of child.stderr.pipeThrough(new TextDecoderStream())) {
      err += t;
    }
  })();
  return { child, stderr: () => err };
}
