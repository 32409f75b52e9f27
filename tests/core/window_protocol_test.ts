/**
 * The window channel's messages (core/protocol.ts): what a page may send
 * (window-hello, layout-op with each operation) is parsed and checked, and
 * what the server sends parses back on the page's side, the layout checked.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  encodeWindowServerMessage,
  type LayoutOp,
  parseLayoutOp,
  parseWindowClientMessage,
  parseWindowServerMessage,
  type WindowHelloMessage,
  type WindowServerMessage,
} from "../../core/protocol.ts";
import { newLayout, splitPane } from "../../core/layout.ts";

const hello: WindowHelloMessage = {
  type: "window-hello",
  key: "k",
  window: null,
  session: null,
  cols: 80,
  rows: 24,
};

Deno.test("window-hello: a new window, a reload, an existing session", () => {
  assertEquals(parseWindowClientMessage(JSON.stringify(hello)), hello);
  const reload = { ...hello, window: 3 };
  assertEquals(parseWindowClientMessage(JSON.stringify(reload)), reload);
  const attach = { ...hello, session: 7 };
  assertEquals(parseWindowClientMessage(JSON.stringify(attach)), attach);
  // The colours the page shows, for the sessions started for it.
  const colors = {
    foreground: "#101010",
    background: "#fbfbfa",
    cursor: "#202020",
    palette: Array.from({ length: 16 }, () => "#808080"),
  };
  const colored = { ...hello, colors };
  assertEquals(parseWindowClientMessage(JSON.stringify(colored)), colored);
});

Deno.test("window-hello: bad fields are refused with a reason", () => {
  for (
    const bad of [
      { ...hello, key: 1 },
      { ...hello, window: 0 },
      { ...hello, window: "1" },
      { ...hello, session: -2 },
      { ...hello, session: undefined },
      { ...hello, cols: 0 },
      { ...hello, rows: 5000 },
      { ...hello, colors: { foreground: "red" } },
    ]
  ) {
    const r = parseWindowClientMessage(JSON.stringify(bad));
    assertEquals(typeof r, "string", JSON.stringify(bad));
  }
  assertEquals(parseWindowClientMessage("{"), "message is not JSON");
  assertEquals(
    parseWindowClientMessage('{"type":"hello"}'),
    'unknown message type "hello"',
  );
  assertEquals(
    parseWindowClientMessage("x".repeat(70_000)),
    "message too large",
  );
});

Deno.test("layout-op: every operation parses to itself", () => {
  const ops: LayoutOp[] = [
    { op: "tab", beside: 2, session: null },
    { op: "tab", beside: 2, session: 5 },
    { op: "split", beside: 2, side: "below", session: null },
    { op: "move", pane: 4, drop: { kind: "tabs", stack: 1, index: 0 } },
    { op: "move", pane: 4, drop: { kind: "side", pane: 2, side: "left" } },
    { op: "close", pane: 2 },
    { op: "focus", pane: 2 },
    { op: "rename", pane: 2, title: "build" },
    { op: "rename", pane: 2, title: null },
    { op: "resize", split: 3, sizes: [0.3, 0.7] },
    { op: "to-new-window", pane: 2 },
    { op: "to-window", pane: 2, window: 4 },
  ];
  for (const op of ops) {
    const text = JSON.stringify({ type: "layout-op", op });
    assertEquals(parseWindowClientMessage(text), { type: "layout-op", op });
  }
});

Deno.test("layout-op: bad operations are refused with a reason", () => {
  const bad: unknown[] = [
    null,
    { op: "explode", pane: 1 },
    { op: "tab", beside: "2", session: null },
    { op: "tab", beside: 2 },
    { op: "split", beside: 2, side: "middle", session: null },
    { op: "move", pane: 2, drop: { kind: "tabs", stack: 1, index: -1 } },
    { op: "move", pane: 2, drop: { kind: "side", pane: 1, side: "up" } },
    { op: "move", pane: 2, drop: { kind: "float" } },
    { op: "close" },
    { op: "rename", pane: 2, title: 5 },
    { op: "rename", pane: 2, title: "x".repeat(201) },
    { op: "resize", split: 3, sizes: [1] },
    { op: "resize", split: 3, sizes: [1, "2"] },
    { op: "resize", split: 3, sizes: [1, Infinity] },
    { op: "to-window", pane: 2, window: 0 },
  ];
  for (const op of bad) {
    assertEquals(typeof parseLayoutOp(op), "string", JSON.stringify(op));
  }
});

Deno.test("server messages round-trip; a broken layout is refused", () => {
  const layout = splitPane(newLayout(1), 2, "right", 2).layout;
  const msgs: WindowServerMessage[] = [
    { type: "layout", window: 1, layout },
    { type: "layout", window: 0, layout: newLayout(4) },
    { type: "open-window", window: 2 },
    { type: "open-page", request: 1, window: null, session: 3 },
    { type: "open-page", request: 2, window: 4, session: null },
    { type: "open-page", request: 3, window: null, session: null },
    { type: "window-error", message: "no pane 9" },
    { type: "window-closed" },
  ];
  for (const m of msgs) {
    assertEquals(parseWindowServerMessage(encodeWindowServerMessage(m)), m);
  }
  const broken = {
    type: "layout",
    window: 1,
    layout: { ...layout, focus: 99 },
  };
  const r = parseWindowServerMessage(JSON.stringify(broken));
  assert(typeof r === "string" && r.startsWith("layout: "), String(r));
});

Deno.test("open-page's answer, page-opened, parses; bad fields are refused", () => {
  for (const opened of [true, false]) {
    const m = { type: "page-opened" as const, request: 7, opened };
    assertEquals(parseWindowClientMessage(JSON.stringify(m)), m);
  }
  for (
    const bad of [
      { type: "page-opened", request: 0, opened: true },
      { type: "page-opened", request: 1, opened: "yes" },
      { type: "page-opened", opened: true },
    ]
  ) {
    const r = parseWindowClientMessage(JSON.stringify(bad));
    assert(typeof r === "string" && r.startsWith("page-opened: "), String(r));
  }
  const r = parseWindowServerMessage(
    JSON.stringify({ type: "open-page", request: 1, window: 0, session: null }),
  );
  assertEquals(r, "open-page: bad window");
});
