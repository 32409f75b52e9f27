/**
 * Table tests for the line editor (core/line_editor): every editing key, fed
 * as the bytes a window's key handler produces.
 */
import { assertEquals } from "../assert.ts";
import {
  addToHistory,
  type ControlChars,
  DEFAULT_CONTROL_CHARS,
  findInHistory,
  LineEditor,
} from "../../core/line_editor/editor.ts";
import { splitKeys } from "../../core/line_editor/keys.ts";
import { makeTerminal } from "./helpers.ts";

interface Case {
  name: string;
  /** Initial text; `|` marks the caret. */
  start?: string;
  history?: string[];
  cc?: Partial<ControlChars>;
  /** Bytes fed, key by key. */
  input: string;
  /** Expected text with `|` at the caret (and `[`...`]` around a selection). */
  want: string;
  /** Bytes sent to the program, concatenated. */
  sent?: string;
  done?: boolean;
  commits?: string[];
}

function setup(c: Case): LineEditor {
  const ed = new LineEditor(
    { ...DEFAULT_CONTROL_CHARS, ...c.cc },
    c.history ?? [],
  );
  const start = c.start ?? "|";
  const at = start.indexOf("|");
  ed.text = start.replace("|", "");
  ed.setCaret(at);
  return ed;
}

function show(ed: LineEditor): string {
  const [a, b] = ed.selection();
  if (a === b) {
    return ed.text.slice(0, ed.caret) + "|" + ed.text.slice(ed.caret);
  }
  const mark = (i: number) => (i === ed.caret ? "|" : "");
  return ed.text.slice(0, a) + "[" + mark(a) + ed.text.slice(a, b) + mark(b) +
    "]" + ed.text.slice(b);
}

const CASES: Case[] = [
  { name: "typing", input: "hello", want: "hello|" },
  {
    name: "Left, Right",
    start: "abc|",
    input: "\x1b[D\x1b[D\x1b[C",
    want: "ab|c",
  },
  { name: "SS3 arrows", start: "abc|", input: "\x1bOD\x1bOD", want: "a|bc" },
  {
    name: "Ctrl-B, Ctrl-F",
    start: "abc|",
    input: "\x02\x02\x06",
    want: "ab|c",
  },
  { name: "Home (CSI H)", start: "abc|", input: "\x1b[H", want: "|abc" },
  { name: "Home (CSI 1~)", start: "abc|", input: "\x1b[1~", want: "|abc" },
  { name: "End (CSI F)", start: "|abc", input: "\x1b[F", want: "abc|" },
  { name: "End (CSI 4~)", start: "|abc", input: "\x1b[4~", want: "abc|" },
  {
    name: "Ctrl-A, Ctrl-E",
    start: "a|bc",
    input: "\x01x\x05y",
    want: "xabcy|",
  },
  { name: "insert mid-line", start: "ac|", input: "\x1b[Db", want: "ab|c" },
  { name: "Backspace (DEL)", start: "abc|", input: "\x7f", want: "ab|" },
  { name: "Backspace (^H)", start: "abc|", input: "\x08", want: "ab|" },
  { name: "Backspace at start", start: "|abc", input: "\x7f", want: "|abc" },
  { name: "Delete", start: "a|bc", input: "\x1b[3~", want: "a|c" },
  { name: "Ctrl-K kills to end", start: "ab|cd", input: "\x0b", want: "ab|" },
  { name: "Ctrl-U kills to start", start: "ab|cd", input: "\x15", want: "|cd" },
  {
    name: "Ctrl-U follows termios VKILL",
    start: "ab|cd",
    cc: { kill: "\x18" },
    input: "\x18",
    want: "|cd",
  },
  {
    name: "Ctrl-W kills a word",
    start: "ls -l /tmp|",
    input: "\x17",
    want: "ls -l |",
  },
  {
    name: "Ctrl-W twice, then Ctrl-Y yanks both",
    start: "a bc de|",
    input: "\x17\x17\x19",
    want: "a bc de|",
  },
  {
    name: "Ctrl-K then Ctrl-Y",
    start: "ab|cd",
    input: "\x0b\x01\x19",
    want: "cd|ab",
  },
  { name: "Alt-B", start: "foo bar|", input: "\x1bb", want: "foo |bar" },
  { name: "Alt-F", start: "|foo bar", input: "\x1bf", want: "foo| bar" },
  { name: "Alt-D", start: "|foo bar", input: "\x1bd", want: "| bar" },
  {
    name: "Alt-Backspace",
    start: "foo bar|",
    input: "\x1b\x7f",
    want: "foo |",
  },
  {
    name: "Ctrl+Left",
    start: "foo.bar baz|",
    input: "\x1b[1;5D\x1b[1;5D",
    want: "foo.|bar baz",
  },
  {
    name: "Ctrl+Right",
    start: "|foo bar",
    input: "\x1b[1;5C",
    want: "foo| bar",
  },
  {
    name: "Shift+Left selects",
    start: "abc|",
    input: "\x1b[1;2D\x1b[1;2D",
    want: "a[|bc]",
  },
  {
    name: "Shift+Home selects",
    start: "ab|c",
    input: "\x1b[1;2H",
    want: "[|ab]c",
  },
  {
    name: "typing replaces the selection",
    start: "abc|",
    input: "\x1b[1;2D\x1b[1;2DX",
    want: "aX|",
  },
  {
    name: "Backspace deletes the selection",
    start: "abc|",
    input: "\x1b[1;2D\x1b[1;2D\x7f",
    want: "a|",
  },
  {
    name: "Left collapses the selection",
    start: "abc|",
    input: "\x1b[1;2D\x1b[1;2D\x1b[D",
    want: "a|bc",
  },
  {
    name: "Alt+Enter inserts a newline",
    start: "a|",
    input: "\x1b\rb",
    want: "a\nb|",
  },
  {
    name: "Up within multi-line input",
    start: "abc\nd|",
    input: "\x1b[A",
    want: "a|bc\nd",
  },
  {
    name: "paste inserts",
    start: "a|",
    input: "\x1b[200~x\r\ny\x1b[201~",
    want: "ax\ny|",
  },
  { name: "Tab inserts", input: "a\tb", want: "a\tb|" },
  {
    name: "surrogate pair as one character",
    start: "a\u{1F600}|",
    input: "\x7f",
    want: "a|",
  },
  {
    name: "Enter sends the line",
    start: "echo hi|",
    input: "\r",
    want: "|",
    sent: "echo hi\r",
    done: true,
    commits: ["echo hi"],
  },
  {
    name: "Enter mid-line sends the whole line",
    start: "ec|ho",
    input: "\r",
    want: "|",
    sent: "echo\r",
    done: true,
    commits: ["echo"],
  },
  {
    name: "Ctrl-C discards and is sent",
    start: "abc|",
    input: "\x03",
    want: "|",
    sent: "\x03",
    done: true,
  },
  {
    name: "INTR from termios",
    start: "abc|",
    cc: { intr: "\x18" },
    input: "\x18",
    want: "|",
    sent: "\x18",
    done: true,
  },
  {
    name: "Ctrl-Z goes to the program",
    start: "ab|",
    input: "\x1a",
    want: "|",
    sent: "\x1a",
    done: true,
  },
  {
    name: "Ctrl-\\ goes to the program",
    start: "ab|",
    input: "\x1c",
    want: "|",
    sent: "\x1c",
    done: true,
  },
  {
    name: "Ctrl-D on an empty line is EOF",
    input: "\x04",
    want: "|",
    sent: "\x04",
    done: true,
  },
  {
    name: "Ctrl-D on a line deletes forward",
    start: "a|bc",
    input: "\x04",
    want: "a|c",
  },
  {
    name: "Up recalls history, Down returns to the draft",
    history: ["one", "two"],
    start: "dr|",
    input: "\x1b[A\x1b[A",
    want: "one|",
  },
  {
    name: "Up then Down",
    history: ["one", "two"],
    start: "dr|",
    input: "\x1b[A\x1b[B",
    want: "dr|",
  },
  {
    name: "Ctrl-P / Ctrl-N",
    history: ["one", "two"],
    input: "\x10\x10\x0e",
    want: "two|",
  },
  {
    name: "Alt-< first entry",
    history: ["one", "two", "three"],
    input: "\x1b<",
    want: "one|",
  },
  {
    name: "Alt-> back to the draft",
    history: ["one", "two"],
    start: "x|",
    input: "\x1b<\x1b>",
    want: "x|",
  },
  {
    name: "Ctrl-R finds the newest match",
    history: ["cat a", "ls", "cat b"],
    input: "\x12cat",
    want: "|cat b",
  },
  {
    name: "Ctrl-R again goes older",
    history: ["cat a", "ls", "cat b"],
    input: "\x12cat\x12",
    want: "|cat a",
  },
  {
    name: "Ctrl-S goes newer",
    history: ["cat a", "ls", "cat b"],
    input: "\x12cat\x12\x13",
    want: "|cat b",
  },
  {
    name: "search then Ctrl-E accepts and moves",
    history: ["cat a", "ls"],
    input: "\x12ls\x05!",
    want: "ls!|",
  },
  {
    name: "Ctrl-G cancels the search",
    history: ["cat a"],
    start: "x|",
    input: "\x12cat\x07",
    want: "x|",
  },
  {
    name: "Enter during search sends the match",
    history: ["cat a", "ls"],
    input: "\x12ca\r",
    want: "|",
    sent: "cat a\r",
    done: true,
    commits: ["cat a"],
  },
];

Deno.test("line editor: editing keys", async (t) => {
  for (const c of CASES) {
    await t.step(c.name, () => {
      const ed = setup(c);
      let sent = "";
      let done = false;
      const commits: string[] = [];
      for (const k of splitKeys(c.input)) {
        const r = ed.key(k);
        if (r.send) sent += r.send;
        if (r.commit !== undefined) commits.push(r.commit);
        if (r.done) done = true;
      }
      assertEquals(show(ed), c.want);
      assertEquals(sent, c.sent ?? "");
      assertEquals(done, c.done ?? false);
      assertEquals(commits, c.commits ?? []);
    });
  }
});

Deno.test("line editor: splitKeys", () => {
  assertEquals(splitKeys("ab\x1b[1;5Dc\x1bOA\x1bb\x03"), [
    { kind: "text", text: "ab" },
    { kind: "csi", params: "1;5", final: "D" },
    { kind: "text", text: "c" },
    { kind: "ss3", final: "A" },
    { kind: "alt", char: "b" },
    { kind: "ctrl", char: "\x03" },
  ]);
  assertEquals(splitKeys("\x1b[200~a\x1bb\x1b[201~"), [
    { kind: "paste", text: "a\x1bb" },
  ]);
  assertEquals(splitKeys("\x1b"), [{ kind: "ctrl", char: "\x1b" }]);
});

Deno.test("line editor: history helpers", () => {
  assertEquals(addToHistory(["a"], "a", 5), ["a"]);
  assertEquals(addToHistory(["a"], "  ", 5), ["a"]);
  assertEquals(addToHistory(["a", "b", "c"], "d", 3), ["b", "c", "d"]);
  assertEquals(findInHistory(["ab", "cd", "ab"], "ab", 1, true), 0);
  assertEquals(findInHistory(["ab", "cd", "ab"], "ab", 1, false), 2);
  assertEquals(findInHistory(["ab"], "zz", 0, true), -1);
});

Deno.test("CSI 80 ; N u asks for an input mode; other numbers do not", () => {
  const t = makeTerminal(20, 4);
  t.term.write("\x1b[80;97u\x1b[80;99u\x1b[80;108u\x1b[80;112u\x1b[80;1u");
  assertEquals(
    t.events.filter((e) => e.type === "input-mode"),
    [
      { type: "input-mode", mode: "auto" },
      { type: "input-mode", mode: "char" },
      { type: "input-mode", mode: "line" },
      { type: "input-mode", mode: "pipe" },
    ],
  );
});

Deno.test("line editor: incremental search says when the query matches nothing", () => {
  const ed = setup({ name: "", history: ["cat a", "ls"], input: "", want: "" });
  const state = () => {
    const s = ed.search;
    return s && { query: s.query, failed: s.failed, backward: s.backward };
  };
  const keys = (input: string) => {
    for (const k of splitKeys(input)) ed.key(k);
  };
  keys("\x12");
  assertEquals(state(), { query: "", failed: false, backward: true });
  keys("ca");
  assertEquals(state(), { query: "ca", failed: false, backward: true });
  keys("z");
  // Nothing matches "caz": the last match stays, the search says failed.
  assertEquals(state(), { query: "caz", failed: true, backward: true });
  assertEquals(show(ed), "|cat a");
  keys("\x7f");
  assertEquals(state(), { query: "ca", failed: false, backward: true });
  keys("\x7f\x7f");
  assertEquals(state(), { query: "", failed: false, backward: true });
  keys("\x07");
  assertEquals(state(), null);
});
