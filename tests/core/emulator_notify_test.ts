/**
 * Notifications (OSC 9, OSC 777 ; notify, OSC 99), the window name (OSC
 * 30) and shell-integration command events, as the events the page gets.
 */
import { assertEquals, ESC, OSC, runCases, ST } from "./helpers.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import { MAX_NOTIFY_TITLE } from "../../core/emulator/notify.ts";

const note = (
  source: string,
  title: string,
  body: string,
  id = "",
) => ({ type: "notify", source, title, body, id });

const b64 = (s: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(s)));

runCases("OSC 9 notifications", [
  {
    name: "OSC 9 ; message is a notification with a body",
    input: `${OSC}9;Build done\x07`,
    check: (t) => assertEquals(t.events, [note("osc9", "", "Build done")]),
  },
  {
    name: "a message may hold semicolons, and ST ends it too",
    input: `${OSC}9;a;b;c${ST}`,
    check: (t) => assertEquals(t.events, [note("osc9", "", "a;b;c")]),
  },
  {
    name: "OSC 9 ; 4 is progress, not a notification",
    input: `${OSC}9;4;1;40\x07`,
    check: (t) =>
      assertEquals(t.events, [{ type: "progress", state: 1, percent: 40 }]),
  },
  {
    name: "OSC 9 ; 4 states 0-4",
    input: [0, 1, 2, 3, 4].map((s) => `${OSC}9;4;${s};50\x07`).join(""),
    check: (t) =>
      assertEquals(
        t.events,
        [0, 1, 2, 3, 4].map((state) => ({
          type: "progress",
          state,
          percent: state === 0 ? 0 : 50,
        })),
      ),
  },
  {
    name: "error and paused without a percentage keep the last one",
    input: `${OSC}9;4;1;30\x07${OSC}9;4;2\x07${OSC}9;4;4\x07${OSC}9;4;0;55\x07`,
    check: (t) => {
      assertEquals(t.events, [
        { type: "progress", state: 1, percent: 30 },
        { type: "progress", state: 2, percent: 30 },
        { type: "progress", state: 4, percent: 30 },
        { type: "progress", state: 0, percent: 0 },
      ]);
      assertEquals(t.term.progress, { state: 0, percent: 0 });
    },
  },
  {
    name: "the progress is kept in the state",
    input: `${OSC}9;4;1;40\x07`,
    check: (t) => assertEquals(t.term.progress, { state: 1, percent: 40 }),
  },
  {
    name: "other numbered ConEmu forms (9;9;cwd) are no notification",
    input: `${OSC}9;9;/tmp\x07${OSC}9;1;100\x07${OSC}9;12\x07`,
    check: (t) => assertEquals(t.events, []),
  },
  {
    name: "control characters do not reach it; an empty message is nothing",
    input: `${OSC}9;\x01a\x02b\x07${OSC}9;\x07${OSC}9;   \x07`,
    check: (t) => assertEquals(t.events, [note("osc9", "", "ab")]),
  },
  {
    name: "text after the OSC is printed as usual",
    input: `${OSC}9;hi\x07ok`,
    screen: "ok",
    check: (t) => assertEquals(t.events.length, 1),
  },
]);

runCases("OSC 777 notify", [
  {
    name: "title and body",
    input: `${OSC}777;notify;Mail;3 new messages\x07`,
    check: (t) =>
      assertEquals(t.events, [note("osc777", "Mail", "3 new messages")]),
  },
  {
    name: "the body keeps its semicolons",
    input: `${OSC}777;notify;T;x;y\x07`,
    check: (t) => assertEquals(t.events, [note("osc777", "T", "x;y")]),
  },
  {
    name: "a title alone",
    input: `${OSC}777;notify;Only title\x07`,
    check: (t) => assertEquals(t.events, [note("osc777", "Only title", "")]),
  },
  {
    name: "other 777 commands and a bare notify are ignored",
    input: `${OSC}777;preexec\x07${OSC}777;notify\x07${OSC}777;notify;;\x07`,
    check: (t) => assertEquals(t.events, []),
  },
  {
    name: "a title is cut to the limit",
    input: `${OSC}777;notify;${"x".repeat(MAX_NOTIFY_TITLE + 50)};b\x07`,
    check: (t) =>
      assertEquals(t.events, [
        note("osc777", "x".repeat(MAX_NOTIFY_TITLE), "b"),
      ]),
  },
]);

runCases("OSC 99 (kitty) notifications", [
  {
    name: "no metadata: the payload is the title",
    input: `${OSC}99;;Hello world${ST}`,
    check: (t) => assertEquals(t.events, [note("osc99", "Hello world", "")]),
  },
  {
    name: "title then body, chunked with d=0 under one id",
    input: `${OSC}99;i=1:d=0;Hello world${ST}` +
      `${OSC}99;i=1:p=body:d=0;This is cool;${ST}` +
      `${OSC}99;i=1:p=body; and more${ST}`,
    check: (t) =>
      assertEquals(t.events, [
        note("osc99", "Hello world", "This is cool; and more", "1"),
      ]),
  },
  {
    name: "a title in two chunks",
    input: `${OSC}99;i=a:d=0;Hel${ST}${OSC}99;i=a;lo${ST}`,
    check: (t) => assertEquals(t.events, [note("osc99", "Hello", "", "a")]),
  },
  {
    name: "two ids assembled side by side",
    input: `${OSC}99;i=x:d=0;X${ST}${OSC}99;i=y:d=0;Y${ST}` +
      `${OSC}99;i=y:p=body;yb${ST}${OSC}99;i=x:p=body;xb${ST}`,
    check: (t) =>
      assertEquals(t.events, [
        note("osc99", "Y", "yb", "y"),
        note("osc99", "X", "xb", "x"),
      ]),
  },
  {
    name: "e=1: base64 UTF-8 payloads",
    input: `${OSC}99;i=2:e=1:d=0;${b64("Grüße")}${ST}` +
      `${OSC}99;i=2:e=1:p=body;${b64("a;b: ✓")}${ST}`,
    check: (t) =>
      assertEquals(t.events, [note("osc99", "Grüße", "a;b: ✓", "2")]),
  },
  {
    name: "bad base64 is dropped",
    input: `${OSC}99;e=1;@@@${ST}`,
    check: (t) => assertEquals(t.events, []),
  },
  {
    name: "unknown keys are ignored; icon payloads are not text",
    input: `${OSC}99;i=3:d=0:u=2:o=unfocused:p=icon;abc${ST}` +
      `${OSC}99;i=3:a=focus;T${ST}`,
    check: (t) => assertEquals(t.events, [note("osc99", "T", "", "3")]),
  },
  {
    name: "p=? is answered with what is supported",
    input: `${OSC}99;i=q:p=?;${ST}`,
    replies: [`${ESC}]99;i=q:p=?;p=title,body${ESC}\\`],
    check: (t) => assertEquals(t.events, []),
  },
  {
    name: "an id with odd characters is refused",
    input: `${OSC}99;i=a b;T${ST}`,
    check: (t) => assertEquals(t.events, []),
  },
]);

runCases("OSC 30 window name", [
  {
    name: "names the window",
    input: `${OSC}30;build box\x07`,
    check: (t) => {
      assertEquals(t.events, [{ type: "window-name", name: "build box" }]);
      assertEquals(t.term.windowName, "build box");
    },
  },
  {
    name: "an empty name removes it",
    input: `${OSC}30;x\x07${OSC}30;\x07`,
    check: (t) => assertEquals(t.term.windowName, ""),
  },
]);

runCases("shell-integration command events", [
  {
    name: "OSC 133 C and D with an exit status",
    input: `${OSC}133;A\x07$ ${OSC}133;B\x07ls\r\n${OSC}133;C\x07out\r\n` +
      `${OSC}133;D;2\x07`,
    check: (t) =>
      assertEquals(t.events.filter((e) => e.type === "command"), [
        { type: "command", phase: "start", exit: null },
        { type: "command", phase: "end", exit: 2 },
      ]),
  },
  {
    name: "OSC 633 C and D (no status)",
    input: `${OSC}633;C\x07${OSC}633;D\x07`,
    check: (t) =>
      assertEquals(t.events, [
        { type: "command", phase: "start", exit: null },
        { type: "command", phase: "end", exit: null },
      ]),
  },
]);

Deno.test("the window name and the progress survive a snapshot", () => {
  const a = new Terminal({ cols: 20, rows: 4 });
  a.write(new TextEncoder().encode(`${OSC}30;named\x07${OSC}9;4;4;65\x07`));
  const b = Terminal.restore(JSON.parse(JSON.stringify(a.snapshot())));
  assertEquals(b.windowName, "named");
  assertEquals(b.progress, { state: 4, percent: 65 });
});
