/**
 * The element-event mode (?7101) in the model: DECRQM, resets, the events
 * generation each HTML fragment is printed in, snapshots, and OSC 721 on a
 * lazy inspector (core/emulator/element_events.ts, html_embed.ts).
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import type { LineExtras } from "../../core/model/line_extras.ts";
import {
  eventJson,
  eventReport,
  MAX_EVENT_JSON,
} from "../../core/emulator/element_events.ts";
import { parseClientMessage } from "../../core/protocol.ts";
import {
  assert,
  assertEquals,
  CSI,
  ESC,
  expectEqual,
  makeTerminal,
  OSC,
  runCases,
  type TestTerminal,
} from "./helpers.ts";

const ON = `${CSI}?7101h`;
const OFF = `${CSI}?7101l`;
const BEL = "\x07";
const BUTTON =
  `${OSC}72;<div><button data-dt-event="b">Go</button></div>${BEL}`;
const INLINE = `${OSC}72;<button data-dt-event="i">i</button>${BEL}`;

/** The extras of every line that has a block or inline fragment, in order. */
function fragments(term: Terminal): LineExtras[] {
  const buf = term.normalBuffer;
  const out: LineExtras[] = [];
  for (let i = 0; i < buf.length; i++) {
    const e = buf.getLine(i).extras;
    if (e?.block || e?.inline) out.push(e);
  }
  return out;
}

/** The `events` generation of each fragment ("-" when inert), in order. */
function generations(term: Terminal): string[] {
  return fragments(term).flatMap((e) => [
    ...(e.block ? [String(e.block.events ?? "-")] : []),
    ...(e.inline ?? []).map((i) => String(i.events ?? "-")),
  ]);
}

const modeEvents = (t: TestTerminal) =>
  t.events.filter((e) => e.type === "element-events");

runCases("element events", [
  {
    name: "DECRQM: off by default",
    input: `${CSI}?7101$p`,
    replies: [`${CSI}?7101;2$y`],
  },
  {
    name: "DECRQM: set",
    input: `${ON}${CSI}?7101$p`,
    replies: [`${CSI}?7101;1$y`],
  },
  {
    name: "DECRQM: reset again",
    input: `${ON}${OFF}${CSI}?7101$p`,
    replies: [`${CSI}?7101;2$y`],
  },
  {
    name: "a fragment printed while off is inert",
    input: BUTTON,
    check: (t) => expectEqual(generations(t.term), ["-"], "generations"),
  },
  {
    name: "a fragment printed while on carries the generation",
    input: `${ON}${BUTTON}${INLINE}`,
    check: (t) => {
      expectEqual(generations(t.term), ["0", "0"], "generations");
      expectEqual(t.term.eventsGeneration, 0, "generation");
    },
  },
  {
    name: "off bumps the generation: the old fragments stay behind",
    input: `${ON}${BUTTON}${OFF}${ON}${BUTTON}`,
    check: (t) => {
      expectEqual(generations(t.term), ["0", "1"], "generations");
      expectEqual(t.term.eventsGeneration, 1, "generation");
    },
  },
  {
    name: "set again while on: a new generation; reset twice: one change",
    input: `${ON}${ON}${OFF}${OFF}`,
    check: (t) => {
      expectEqual(
        modeEvents(t),
        [
          { type: "element-events", on: true, generation: 0 },
          { type: "element-events", on: true, generation: 1 },
          { type: "element-events", on: false, generation: 2 },
        ],
        "events",
      );
      expectEqual(t.term.eventsGeneration, 2, "generation");
    },
  },
  {
    name: "RIS turns it off and bumps the generation",
    input: `${ON}${BUTTON}${ESC}c`,
    check: (t) => {
      assert(!t.term.modes.elementEvents);
      expectEqual(t.term.eventsGeneration, 1, "generation");
      expectEqual(modeEvents(t).length, 2, "events");
    },
  },
  {
    name: "RIS while off leaves the generation",
    input: `${ESC}c`,
    check: (t) => expectEqual(t.term.eventsGeneration, 0, "generation"),
  },
  {
    name: "DECSTR turns it off and bumps the generation",
    input: `${ON}${CSI}!p${CSI}?7101$p`,
    replies: [`${CSI}?7101;2$y`],
    check: (t) => expectEqual(t.term.eventsGeneration, 1, "generation"),
  },
  {
    name: "XTSAVE / XTRESTORE",
    input: `${ON}${CSI}?7101s${OFF}${CSI}?7101r${CSI}?7101$p`,
    replies: [`${CSI}?7101;1$y`],
    check: (t) => expectEqual(t.term.eventsGeneration, 1, "generation"),
  },
  {
    name: "another program sets it again: the first one's elements are inert",
    input: `${ON}${BUTTON}${ON}${BUTTON}`,
    check: (t) => {
      expectEqual(generations(t.term), ["0", "1"], "generations");
      expectEqual(t.term.eventsGeneration, 1, "generation");
    },
  },
  {
    name:
      "OSC 721 on a lazy inspector: children replaced, opened, keys indexed",
    input:
      `${ON}${OSC}72;<details data-dt-event="t" class="can-replace-children"` +
      ` replace-key="root"><summary>root</summary></details>${BEL}` +
      `${OSC}721;root;<summary>root</summary><details data-dt-event="t"` +
      ` class="can-replace-children" replace-key="a"><summary>a</summary>` +
      `</details>${BEL}` +
      `${OSC}721;a;<summary>a</summary>1${BEL}`,
    check: (t) => {
      const [e] = fragments(t.term);
      expectEqual(
        e.block?.html,
        `<details data-dt-event="t" class="can-replace-children"` +
          ` replace-key="root" open><summary>root</summary><details` +
          ` data-dt-event="t" class="can-replace-children" replace-key="a"` +
          ` open><summary>a</summary>1</details></details>`,
        "html",
      );
      expectEqual(e.block?.events, 0, "still live");
    },
  },
  {
    name: "OSC 721 on an open details keeps one open attribute",
    input:
      `${OSC}72;<details open class="can-replace-children" replace-key=k>` +
      `<summary>s</summary></details>${BEL}${OSC}721;k;x${BEL}`,
    check: (t) =>
      expectEqual(
        fragments(t.term)[0].block?.html,
        `<details open class="can-replace-children" replace-key=k>x</details>`,
        "html",
      ),
  },
]);

Deno.test("element events: stopElementEvents is CSI ? 7101 l", () => {
  const t = makeTerminal();
  t.term.write(`${ON}${BUTTON}`);
  t.term.stopElementEvents();
  assert(!t.term.modes.elementEvents);
  assertEquals(t.term.eventsGeneration, 1);
  assertEquals(modeEvents(t).at(-1), {
    type: "element-events",
    on: false,
    generation: 1,
  });
});

Deno.test("element events: a snapshot keeps the mode, the generation and the tags", () => {
  const t = makeTerminal();
  t.term.write(`${ON}${BUTTON}${OFF}${ON}${BUTTON}${INLINE}`);
  const copy = Terminal.restore(
    JSON.parse(JSON.stringify(t.term.snapshot())),
  );
  assert(copy.modes.elementEvents);
  assertEquals(copy.eventsGeneration, 1);
  assertEquals(generations(copy), ["0", "1", "1"]);
  // An older snapshot without the generation reads as 0.
  const old = t.term.snapshot() as unknown as {
    embeds: { eventsGen?: number };
  };
  delete old.embeds.eventsGen;
  assertEquals(
    Terminal.restore(JSON.parse(JSON.stringify(old))).eventsGeneration,
    0,
  );
});

Deno.test("element events: the report line, cut to 4 KiB", () => {
  assertEquals(
    eventReport({ name: "go", key: "k", event: "click", value: null }),
    `\x1b]7101;{"name":"go","key":"k","event":"click","value":null}\x07\n`,
  );
  // Newlines and controls are escaped: one line whatever the value.
  const json = eventJson({
    name: "t",
    key: null,
    event: "change",
    value: "a\nb\x07",
  });
  assertEquals(
    json,
    '{"name":"t","key":null,"event":"change","value":"a\\nb\\u0007"}',
  );
  // A long value is cut to fit (never inside a surrogate pair) and said.
  for (const unit of ["x", "é", "😀", "\n"]) {
    const cut = JSON.parse(
      eventJson({
        name: "t",
        key: null,
        event: "change",
        value: unit.repeat(5000),
      }),
    );
    const bytes = new TextEncoder().encode(
      eventJson({ name: "t", key: null, event: "change", value: cut.value }),
    ).length;
    assert(bytes <= MAX_EVENT_JSON - 10, `${unit}: ${bytes}`);
    assertEquals(cut.truncated, true);
    assertEquals(cut.value, unit.repeat(cut.value.length / unit.length));
    assert(
      new TextEncoder().encode(JSON.stringify(cut)).length >
        MAX_EVENT_JSON - 16,
      unit,
    );
  }
});

Deno.test("element events: the element-event message is checked", () => {
  const ok = {
    type: "element-event",
    generation: 3,
    name: "a.b:c-d_9",
    key: "k",
    event: "toggle",
    value: "open",
  };
  assertEquals(parseClientMessage(JSON.stringify(ok)), ok);
  const bad: Record<string, unknown>[] = [
    { generation: -1 },
    { generation: 1.5 },
    { name: "" },
    { name: "a b" },
    { name: "x".repeat(65) },
    { key: 7 },
    { key: "k".repeat(257) },
    { event: "submit" },
    { value: "shut" },
    { event: "click", value: "x" },
    { event: "change", value: null },
    { event: "change", value: 1 },
  ];
  for (const b of bad) {
    const m = parseClientMessage(JSON.stringify({ ...ok, ...b }));
    assertEquals(typeof m, "string", JSON.stringify(b));
  }
});
