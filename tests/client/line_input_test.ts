/**
 * The window's side of the automatic-mode ordering protocol
 * (client/line_input.ts), driven message by message: keys handed back by
 * the server are edited in the order typed, keys typed meanwhile wait, keys
 * handed back after their line ended are sent again, and nothing is sent
 * twice. (The server's side: tests/server/line_input_test.ts; both over a
 * real PTY: tests/e2e/line_editor_test.ts.)
 */
import { assert, assertEquals } from "../assert.ts";
import { LineInput, pieces } from "../../client/line_input.ts";
import {
  type ClientMessage,
  type EditMessage,
  MAX_CONTROL_MESSAGE,
} from "../../core/protocol.ts";
import { DEFAULT_CONTROL_CHARS } from "../../core/line_editor/editor.ts";

/** What the window sent, in order: bytes as "B:...", messages as their JSON minus edit-state. */
function setup() {
  const out: string[] = [];
  const li = new LineInput({
    sendBytes: (d) => out.push(`B:${d}`),
    sendMessage: (m: ClientMessage) => {
      if (m.type === "key") out.push(`K${m.seq}:${m.data}`);
      else if (m.type === "line") {
        out.push(`L:${m.history ?? ""}${m.echo ? `|${m.echo}` : ""}`);
      }
    },
    changed: () => {},
  });
  return { li, out };
}

function edit(seq: number, data: string, echo = true): EditMessage {
  return {
    type: "edit",
    seq,
    data,
    echo,
    cc: DEFAULT_CONTROL_CHARS,
    historyKey: "cat",
  };
}

Deno.test("line input: keys handed back are edited in order; keys typed meanwhile wait behind them", () => {
  const { li, out } = setup();
  li.input("a");
  li.input("b");
  li.input("c");
  assertEquals(out, ["K1:a", "K2:b", "K3:c"]);
  li.onEdit(edit(1, "a"));
  assertEquals(li.editing, true);
  li.input("d"); // typed now: must come after b and c
  assertEquals(li.editor.text, "a");
  li.onEdit(edit(2, "b"));
  li.onEdit(edit(3, "c"));
  assertEquals(li.editor.text, "abcd");
  li.input("\r");
  assertEquals(out.slice(3), ["L:abcd", "B:abcd\r"]);
  assertEquals(li.editing, false);
  li.input("e");
  assertEquals(out.slice(5), ["K4:e"], "the next key is checked again");
});

Deno.test("line input: keys handed back after their line ended go out again, before later keys", () => {
  const { li, out } = setup();
  for (const k of ["h", "\r", "x", "y"]) li.input(k);
  li.onEdit(edit(1, "h"));
  li.onEdit(edit(2, "\r"));
  assertEquals(out.slice(4), ["L:h", "B:h\r"]);
  li.input("z"); // waits: x and y are still coming back
  li.onEdit(edit(3, "x"));
  li.onEdit(edit(4, "y"));
  assertEquals(out.slice(6), ["K5:x", "K6:y", "K7:z"]);
});

Deno.test("line input: the terminal went raw: what was typed goes out without Enter", () => {
  const { li, out } = setup();
  li.input("a");
  li.onEdit(edit(1, "a"));
  li.input("b");
  li.onRaw();
  assertEquals(out.slice(1), ["L:", "B:ab"]);
  assertEquals(li.editing, false);
});

Deno.test("line input: character mode, focus reports, masked input, pipe mode", () => {
  const { li, out } = setup();
  li.input("\x1b[I");
  li.setMode("char");
  li.input("q");
  assertEquals(out, ["B:\x1b[I", "B:q"]);
  li.setMode("auto");
  li.input("s");
  li.onEdit(edit(1, "s", false));
  assertEquals(li.masked, true);
  li.input("ecret\r");
  assertEquals(out.slice(2), ["K1:s", "L:", "B:secret\r"], "no history");
  li.setMode("pipe");
  li.input("p");
  li.onEdit(edit(2, "p"));
  li.input("\r");
  assertEquals(out.slice(5), ["K2:p", "L:p|p\r\n", "B:p\r"]);
});

/** Every message the window sent (bytes as `{bytes}`), edit-state left out. */
function setupAll() {
  const out: (ClientMessage | { bytes: string })[] = [];
  const li = new LineInput({
    sendBytes: (d) => out.push({ bytes: d }),
    sendMessage: (m) => {
      if (m.type !== "edit-state") out.push(m);
    },
    changed: () => {},
  });
  return { li, out };
}

/** 100 KiB of lines, too large for one message. */
const BIG = Array.from({ length: 1600 }, (_, i) => `${i}`.padEnd(63, "x"))
  .join("\n") + "\n";

type Bulk = { type: "key"; seq: number; data: string; bulk?: boolean };

/** Answers every `bulk` piece sent and not yet answered, as the server does once written; returns how many. */
function ackAll(
  li: LineInput,
  out: (ClientMessage | { bytes: string })[],
  acked: Set<number>,
): number {
  let n = 0;
  for (const m of [...out] as Bulk[]) {
    if (m.type === "key" && m.bulk && !acked.has(m.seq)) {
      acked.add(m.seq);
      li.onBulkAck(m.seq);
      n++;
    }
  }
  return n;
}

/** Characters of `bulk` pieces sent and not answered. */
function inFlight(
  out: (ClientMessage | { bytes: string })[],
  acked: Set<number>,
): number {
  return (out as Bulk[]).filter((m) => m.bulk && !acked.has(m.seq))
    .reduce((a, m) => a + m.data.length, 0);
}

Deno.test("line input: a paste too large for one message goes in bulk in automatic mode, no round trip", () => {
  const { li, out } = setupAll();
  const data = BIG.replace(/\n/g, "\r");
  li.paste(BIG, data);
  // Pieces are answered once written (bulk-ack): no round trip per line,
  // and nothing handed back to the editor.
  const acked = new Set<number>();
  while (ackAll(li, out, acked) > 0) { /* the next pieces went out */ }
  assert(out.length > 1);
  assert(out.every((m) => "type" in m && m.type === "key" && m.bulk));
  assertEquals(
    out.map((m) => (m as { data: string }).data).join(""),
    data,
    "the bytes a raw program gets, in order, whole",
  );
  assert(out.every((m) => JSON.stringify(m).length <= MAX_CONTROL_MESSAGE));
  assertEquals(li.editing, false);
  // Nothing more comes back for it: the next key goes out at once.
  li.input("y");
  assertEquals(out.at(-1), { type: "key", seq: out.length, data: "y" });
});

Deno.test("line input: a large paste keeps at most 64 KiB unanswered; keys typed meanwhile go after it", () => {
  const { li, out } = setupAll();
  const data = (BIG + BIG + BIG).replace(/\n/g, "\r"); // 300 KiB
  li.paste(BIG + BIG + BIG, data);
  const acked = new Set<number>();
  assert(li.pasting, "pieces wait for answers");
  const first = inFlight(out, acked);
  assert(first > 0 && first <= 64 * 1024, `${first} in flight`);
  li.input("y");
  assert(
    !out.some((m) => (m as Bulk).data === "y"),
    "y waits behind the paste",
  );
  let worst = 0;
  while (ackAll(li, out, acked) > 0) {
    worst = Math.max(worst, inFlight(out, acked));
  }
  assert(worst <= 64 * 1024, `${worst} in flight`);
  assertEquals(li.pasting, false);
  const sent = out as Bulk[];
  assertEquals(sent.filter((m) => m.bulk).map((m) => m.data).join(""), data);
  assertEquals(sent.at(-1), { type: "key", seq: sent.length, data: "y" });
});

Deno.test("line input: INTR during a large paste drops what was not sent and goes at once", () => {
  const { li, out } = setupAll();
  li.paste(BIG + BIG + BIG, (BIG + BIG + BIG).replace(/\n/g, "\r"));
  const sentBefore = out.length;
  li.input("z"); // typed after the paste: flushed with it, as a tty does
  li.input("\x03");
  assertEquals(li.pasting, false);
  assertEquals(out.length, sentBefore + 1, "only the INTR went out");
  assertEquals(out.at(-1), { type: "key", seq: sentBefore + 1, data: "\x03" });
  // Answers for the pieces already sent change nothing.
  ackAll(li, out, new Set());
  assertEquals(out.length, sentBefore + 1);
  li.input("k");
  assertEquals(out.at(-1), { type: "key", seq: sentBefore + 2, data: "k" });
});

Deno.test("line input: line mode: a large paste is handed back in pieces and inserted whole", () => {
  const { li, out } = setupAll();
  li.setMode("line");
  li.paste(BIG, BIG.replace(/\n/g, "\r"));
  const keys = out as { seq: number; data: string; paste?: string }[];
  assert(keys.length > 1 && keys.every((k) => k.paste === k.data));
  assertEquals(keys.map((k) => k.paste).join(""), BIG);
  for (const k of keys) {
    li.onEdit({ ...edit(k.seq, k.data), paste: k.paste });
  }
  assertEquals(li.editor.text, BIG, "newlines inserted, nothing sent yet");
  assertEquals(out.length, keys.length);
});

Deno.test("line input: INTR ending a line goes as a key (the server flushes queued input)", () => {
  const { li, out } = setupAll();
  li.input("a");
  li.onEdit(edit(1, "a"));
  li.input("\x03");
  assertEquals(out.slice(1), [
    { type: "line" },
    { type: "key", seq: 2, data: "\x03" },
  ]);
  assertEquals(li.editing, false);
});

Deno.test("line input: paste pieces fit a message and keep surrogate pairs whole", () => {
  const text = "😀".repeat(20_000) + "\x1b".repeat(30_000) + "a";
  const ps = pieces(text);
  assertEquals(ps.join(""), text);
  for (const p of ps) {
    assert(JSON.stringify(p).length * 2 <= MAX_CONTROL_MESSAGE);
    const last = p.charCodeAt(p.length - 1);
    assert(!(last >= 0xd800 && last <= 0xdbff), "a pair cut in two");
  }
});
