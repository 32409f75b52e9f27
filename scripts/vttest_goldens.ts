/**
 * Regenerates the vttest golden screens in tests/fixtures/programs/vttest/.
 *
 * How the goldens are made: every walk of tests/programs/vttest_script.ts
 * runs `vttest 24x80.80` inside a detached tmux session of 80x24 (status
 * line off), an emulator independent of ours. After each step's keys the
 * script waits until `tmux capture-pane -p` has not changed for a while and
 * saves that text. Steps marked `reference: "domterm"` show the terminal's
 * own identity (DA replies, which tmux answers as tmux); their goldens come
 * from the same walk in our emulator and were checked by hand against
 * core/emulator/replies.ts. The walk also runs in our emulator and every
 * difference from tmux is printed, so a regenerated golden is never just
 * "whatever we produce". vttest's screens check themselves (frames of E's,
 * "should be identical" lines): look at any changed golden before committing.
 *
 * Usage: deno run -A scripts/vttest_goldens.ts [walk-name...]
 *
 * @module
 */
import {
  VTTEST_ARGS,
  VTTEST_WALKS,
  type VttestWalk,
} from "../tests/programs/vttest_script.ts";
import {
  diffScreens,
  normalizeScreen,
  ProgramSession,
} from "../tests/programs/harness.ts";

const FIXTURES = new URL("../tests/fixtures/programs/vttest/", import.meta.url)
  .pathname;
/** A screen counts as finished when it has not changed for this long. */
const QUIET_MS = 800;
const POLL_MS = 100;
const TIMEOUT_MS = 20_000;

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Runs tmux on a private socket; returns stdout. */
async function tmux(socket: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-S", socket, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return new TextDecoder().decode(out.stdout);
}

/** Polls `read` until its value stays the same for QUIET_MS. */
async function settle(read: () => Promise<string> | string): Promise<string> {
  const start = Date.now();
  let last = await read(), since = Date.now();
  while (Date.now() - since < QUIET_MS) {
    if (Date.now() - start > TIMEOUT_MS) {
      throw new Error(`screen never settled:\n${last}`);
    }
    await sleep(POLL_MS);
    const now = await read();
    if (now !== last) {
      last = now;
      since = Date.now();
    }
  }
  return normalizeScreen(last);
}

/**
 * DEC Special Graphics (VT100 line drawing) for the bytes 0x60-0x7e, from
 * the VT100 manual: tmux's `capture-pane -e` marks such cells with SO/SI
 * around the raw ASCII byte, and this turns them into the glyphs shown.
 */
const DEC_GRAPHICS: Record<string, string> = {
  "`": "\u25c6",
  a: "\u2592",
  b: "\u2409",
  c: "\u240c",
  d: "\u240d",
  e: "\u240a",
  f: "\u00b0",
  g: "\u00b1",
  h: "\u2424",
  i: "\u240b",
  j: "\u2518",
  k: "\u2510",
  l: "\u250c",
  m: "\u2514",
  n: "\u253c",
  o: "\u23ba",
  p: "\u23bb",
  q: "\u2500",
  r: "\u23bc",
  s: "\u23bd",
  t: "\u251c",
  u: "\u2524",
  v: "\u2534",
  w: "\u252c",
  x: "\u2502",
  y: "\u2264",
  z: "\u2265",
  "{": "\u03c0",
  "|": "\u2260",
  "}": "\u00a3",
  "~": "\u00b7",
};

/** tmux `capture-pane -p -e` output as plain text with line drawing mapped. */
function plainCapture(captured: string): string {
  return captured
    // deno-lint-ignore no-control-regex
    .replace(/\x1b\[[0-9;:]*m/g, "")
    .replace(
      // deno-lint-ignore no-control-regex
      /\x0e([^\x0f]*)\x0f?/g,
      (_, run: string) => [...run].map((c) => DEC_GRAPHICS[c] ?? c).join(""),
    );
}

/** A hex list for `send-keys -H` (exact bytes, no key-name parsing). */
function hexKeys(keys: string): string[] {
  return [...new TextEncoder().encode(keys)].map((b) => b.toString(16));
}

/** Runs one walk in tmux and in our emulator; returns the screens of both. */
async function runWalk(walk: VttestWalk): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "vttest-goldens-" });
  const socket = `${dir}/tmux.sock`;
  const conf = `${dir}/tmux.conf`;
  await Deno.writeTextFile(conf, "set -g status off\n");
  await tmux(
    socket,
    "-f",
    conf,
    "new-session",
    "-d",
    "-x",
    "80",
    "-y",
    "24",
    "-e",
    "LANG=C.UTF-8",
    "vttest",
    ...VTTEST_ARGS,
  );
  const ours = ProgramSession.start({ command: "vttest", args: VTTEST_ARGS });
  const tmuxScreen = async () =>
    plainCapture(await tmux(socket, "capture-pane", "-p", "-e"));
  const ourScreen = () => ours.text();
  try {
    const main = await settle(tmuxScreen);
    await Deno.writeTextFile(`${FIXTURES}main.txt`, main + "\n");
    await settle(ourScreen);
    await Deno.mkdir(`${FIXTURES}${walk.name}`, { recursive: true });
    for (const step of walk.steps) {
      const tmuxKeys = step.tmuxKeys === undefined ? step.keys : step.tmuxKeys;
      if (tmuxKeys !== null) {
        await tmux(socket, "send-keys", "-H", ...hexKeys(tmuxKeys));
      }
      await ours.send(step.keys);
      const [theirs, mine] = await Promise.all([
        tmuxKeys === null ? "(tmux skips this step)" : settle(tmuxScreen),
        settle(ourScreen),
      ]);
      if (step.reference === "domterm" && !step.why) {
        throw new Error(
          `${walk.name}/${step.name}: reference domterm needs why`,
        );
      }
      const golden = step.reference === "domterm" ? mine : theirs;
      await Deno.writeTextFile(
        `${FIXTURES}${walk.name}/${step.name}.txt`,
        golden + "\n",
      );
      const label = `${walk.name}/${step.name}`;
      if (theirs !== mine) {
        console.log(
          `${label}: domterm differs from tmux${
            step.reference === "domterm" ? " (expected: reference domterm)" : ""
          }\n${diffScreens(theirs, mine)}`,
        );
      } else {
        console.log(`${label}: same in tmux and domterm`);
      }
    }
  } finally {
    await tmux(socket, "kill-server").catch(() => "");
    await ours.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const wanted = Deno.args;
  for (const walk of VTTEST_WALKS) {
    if (wanted.length > 0 && !wanted.includes(walk.name)) continue;
    await runWalk(walk);
  }
}
