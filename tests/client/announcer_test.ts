/**
 * The output announcer and its echo filter (client/a11y/) on a real core
 * Terminal, without a page: what is announced, in what pieces, and what
 * is left out.
 */
import { assertEquals } from "../assert.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { EchoFilter } from "../../client/a11y/echo_filter.ts";
import {
  MIN_GAP_MS,
  OutputAnnouncer,
  QUIET_MS,
} from "../../client/a11y/output_announcer.ts";
import { commandLabel } from "../../client/a11y/command_label.ts";

function setup() {
  const term = new Terminal({ cols: 40, rows: 10, reply: () => {} });
  const said: string[] = [];
  const echo = new EchoFilter();
  const an = new OutputAnnouncer(term, (t) => said.push(t), echo);
  an.reset();
  const typed = (s: string) =>
    echo.typed(s, an.cursorPlace(), performance.now());
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const out = async (s: string) => {
    term.write(s);
    an.frame();
    await wait(QUIET_MS + 30);
  };
  return { term, said, an, typed, out, wait };
}

Deno.test("announcer: new output once, the typed echo left out, a failure noted in order", async () => {
  const { said, an, typed, out, wait } = setup();
  await out("$ ");
  assertEquals(said, ["$ "]);
  await wait(MIN_GAP_MS);
  typed("ls\r");
  await out("ls\r\na  b\r\n");
  // The end mark, then the prompt, as a shell prints them.
  an.note("Command failed: exit status 1");
  await out("$ ");
  await wait(MIN_GAP_MS);
  assertEquals(said.slice(1), [
    "\na  b\n",
    "Command failed: exit status 1\n$ ",
  ]);
});

Deno.test("announcer: echo that lands elsewhere (a completion) is announced; typed-ahead keys are matched cell by cell", async () => {
  const { said, an, typed, out, wait } = setup();
  await out("$ ");
  await wait(MIN_GAP_MS);
  // Typed ahead of the echo: both expected, at the next cells.
  typed("e");
  typed("c");
  await out("ec");
  assertEquals(said.length, 1, JSON.stringify(said));
  // Tab: the completion is the program's text.
  typed("\t");
  await wait(MIN_GAP_MS);
  await out("ho ");
  assertEquals(said.slice(1), ["ho "]);
  an.enabled = false;
});

Deno.test("announcer: a flood is counted, at most one announcement a second", async () => {
  const { said, out } = setup();
  await out("$ ");
  let s = "";
  for (let i = 1; i <= 5000; i++) s += `${i}\r\n`;
  await out(s);
  assertEquals(said.slice(1), []); // the gap since the prompt's
  await new Promise((r) => setTimeout(r, MIN_GAP_MS));
  assertEquals(said.slice(1), ["5,000 lines of output"]);
});

Deno.test("command labels", () => {
  const g = {
    end: { line: 3, x: 0 },
    ended: true,
    exitCode: 2,
    output: { line: 1, x: 0 },
  } as unknown as Parameters<typeof commandLabel>[0];
  assertEquals(commandLabel(g, "make", false), "make, failed, exit 2, 2 lines");
  assertEquals(
    commandLabel({ ...g, exitCode: 0 }, "ls -l", true),
    "ls -l, exit 0, 2 lines, output hidden",
  );
  assertEquals(
    commandLabel({ ...g, end: null, output: null }, "", false),
    "prompt",
  );
});
