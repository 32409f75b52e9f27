import { extId } from "../../core/model/cell.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import type { TerminalEvent } from "../../core/terminal_view.ts";
import type { ExtEntry } from "../../core/emulator/ext_table.ts";
import {
  assertEquals,
  cell,
  CSI,
  OSC,
  runCases,
  screenText,
  ST,
} from "./helpers.ts";

runCases("osc", [
  {
    name: "OSC 0 sets both titles",
    input: `${OSC}0;hello\x07`,
    check: (t) => {
      assertEquals(t.term.title, "hello");
      assertEquals(t.term.iconTitle, "hello");
      assertEquals(t.events, [{ type: "title", title: "hello" }]);
    },
  },
  {
    name: "OSC 1 sets the icon title only",
    input: `${OSC}1;icon${ST}`,
    check: (t) => {
      assertEquals(t.term.title, "");
      assertEquals(t.term.iconTitle, "icon");
      assertEquals(t.events, []);
    },
  },
  {
    name: "OSC 2 sets the window title",
    input: `${OSC}2;win${ST}`,
    check: (t) => assertEquals(t.term.title, "win"),
  },
  {
    name: "title with semicolons and UTF-8",
    input: `${OSC}2;a;b — ü${ST}`,
    check: (t) => assertEquals(t.term.title, "a;b — ü"),
  },
  {
    name: "the same title again emits no event",
    input: `${OSC}2;x${ST}${OSC}2;x${ST}`,
    check: (t) => assertEquals(t.events.length, 1),
  },
  {
    name: "long titles are cut",
    input: `${OSC}2;${"x".repeat(5000)}${ST}`,
    check: (t) => assertEquals(t.term.title.length, 1024),
  },
  {
    name: "title stack push / pop",
    input: `${OSC}2;one${ST}${CSI}22;0t${OSC}2;two${ST}${CSI}23;0t`,
    check: (t) => assertEquals(t.term.title, "one"),
  },
  {
    name: "title stack: 22;2 saves only the window title",
    input: `${OSC}0;one${ST}${CSI}22;2t${OSC}0;two${ST}${CSI}23;0t`,
    check: (t) => {
      assertEquals(t.term.title, "one");
      assertEquals(t.term.iconTitle, "two");
    },
  },
  {
    name: "title stack depth is capped at 10",
    input: Array.from({ length: 12 }, (_, i) =>
      `${OSC}2;t${i}${ST}${CSI}22t`).join("") +
      `${OSC}2;last${ST}` + `${CSI}23t`.repeat(12),
    check: (t) =>
      assertEquals(t.term.title, "t2"),
  },
  {
    name: "pop from an empty stack does nothing",
    input: `${OSC}2;x${ST}${CSI}23;0t`,
    check: (t) =>
      assertEquals(t.term.title, "x"),
  },
  {
    name: "OSC 8 hyperlink",
    cols: 20,
    rows: 2,
    input: `${OSC}8;id=x;http://a.example/${ST}link${OSC}8;;${ST} n`,
    screen: "link n",
    check: (t) => {
      const id = extId(cell(t.term, 0, 0).attr);
      const e = t.term.ext(id) as ExtEntry;
      assertEquals(e.link, "http://a.example/");
      assertEquals(e.linkId, "x");
      assertEquals(extId(cell(t.term, 3, 0).attr), id);
      assertEquals(extId(cell(t.term, 5, 0).attr), 0);
    },
  },
  {
    name: "OSC 8 with a URI containing semicolons",
    cols: 20,
    rows: 2,
    input: `${OSC}8;;http://a/?x=1;y=2${ST}a`,
    check: (t) => {
      assertEquals(
        t.term.ext(extId(cell(t.term, 0, 0).attr)).link,
        "http://a/?x=1;y=2",
      );
    },
  },
  {
    name: "OSC 8 links with the same URI and id share an ext id",
    cols: 20,
    rows: 2,
    input:
      `${OSC}8;id=1;u${ST}a${OSC}8;;${ST}b${OSC}8;id=1;u${ST}c${OSC}8;id=2;u${ST}d`,
    check: (t) => {
      const a = extId(cell(t.term, 0, 0).attr);
      assertEquals(extId(cell(t.term, 2, 0).attr), a);
      assertEquals(extId(cell(t.term, 3, 0).attr) !== a, true);
    },
  },
  {
    name: "OSC 8 combined with an underline colour",
    cols: 20,
    rows: 2,
    input: `${CSI}58;5;4m${OSC}8;;u${ST}a`,
    check: (t) => {
      const e = t.term.ext(extId(cell(t.term, 0, 0).attr));
      assertEquals([e.link, e.underlineColor], ["u", (1 << 24) | 4]);
    },
  },
  {
    name: "the link survives SGR 0",
    cols: 20,
    rows: 2,
    input: `${OSC}8;;u${ST}${CSI}0ma`,
    check: (t) =>
      assertEquals(t.term.ext(extId(cell(t.term, 0, 0).attr)).link, "u"),
  },
  {
    name: "unknown OSC is ignored",
    input: `${OSC}777;notify;x${ST}${OSC}L;x${ST}${OSC};x${ST}ok`,
    screen: "ok",
    replies: [],
  },
  {
    name: "OSC 7 reaches the embedder as a cwd event",
    input: `${OSC}7;file://host/tmp${ST}${OSC}7;file://host/x${ST}`,
    check: (t) =>
      assertEquals(t.events, [
        { type: "cwd", url: "file://host/tmp" },
        { type: "cwd", url: "file://host/x" },
      ]),
  },
  {
    name: "the oscHandlers option replaces a built-in handler",
    input: "",
    check: () => {
      const got: string[] = [];
      const events: TerminalEvent[] = [];
      const term = new Terminal({
        cols: 10,
        rows: 2,
        onEvent: (e) => events.push(e),
        oscHandlers: new Map([[7, (a: string) => got.push(a)]]),
      });
      term.write(`${OSC}7;file://host/tmp${ST}${OSC}7${ST}${OSC}2;t${ST}`);
      assertEquals(got, ["file://host/tmp", ""]);
      assertEquals(term.cwd, "");
      // The other codes keep their built-in handlers.
      assertEquals(events, [{ type: "title", title: "t" }]);
    },
  },
  {
    name: "a throwing OSC handler does not break output",
    input: "",
    check: () => {
      const errors: unknown[] = [];
      const term = new Terminal({
        cols: 10,
        rows: 2,
        onError: (e) => errors.push(e),
        oscHandlers: new Map([[9, () => {
          throw new Error("boom");
        }]]),
      });
      term.write(`${OSC}9;x${ST}ok`);
      assertEquals(screenText(term), "ok");
      assertEquals(errors.length, 1);
    },
  },
  {
    name: "BEL rings",
    input: "a\x07",
    check: (t) => assertEquals(t.events, [{ type: "bell" }]),
  },
  {
    name: "BEL terminating an OSC does not ring",
    input: `${OSC}2;x\x07`,
    check: (t) => assertEquals(t.events.filter((e) => e.type === "bell"), []),
  },
]);
