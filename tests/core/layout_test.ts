import { assert, assertEquals, assertThrows } from "../assert.ts";
import {
  addTab,
  closePane,
  findPane,
  focusPane,
  type Layout,
  LayoutError,
  type LayoutNode,
  movePane,
  neighbour,
  newLayout,
  panes,
  parseLayout,
  removeSession,
  renamePane,
  resizeSplit,
  sessionsOf,
  splitPane,
  stackRects,
} from "../../core/layout.ts";

/** The tree in short: "s[1,2*]" a stack (* shown), "row(a|b)", "col(a/b)". */
function shape(node: LayoutNode): string {
  if (node.kind === "stack") {
    const tabs = node.panes.map((p) =>
      `${p.session}${p.id === node.shown ? "*" : ""}`
    );
    return `s[${tabs.join(",")}]`;
  }
  const sep = node.direction === "row" ? "|" : "/";
  const name = node.direction === "row" ? "row" : "col";
  return `${name}(${node.children.map(shape).join(sep)})`;
}

function paneOf(layout: Layout, session: number): number {
  const p = panes(layout).find((p) => p.session === session);
  if (!p) throw new Error(`no pane for session ${session}`);
  return p.id;
}

/** A layout built by steps: each [op, session-of-anchor, new session, side]. */
function build(
  steps: [
    ("tab" | "split"),
    number,
    number,
    ("left" | "right" | "above" | "below")?,
  ][],
): Layout {
  let l = newLayout(1);
  for (const [op, anchor, session, side] of steps) {
    const at = paneOf(l, anchor);
    l = op === "tab"
      ? addTab(l, at, session).layout
      : splitPane(l, at, side!, session).layout;
  }
  return l;
}

const BUILDS: [string, Parameters<typeof build>[0], string][] = [
  ["one pane", [], "s[1*]"],
  ["a tab", [["tab", 1, 2]], "s[1,2*]"],
  ["tab goes after its anchor", [["tab", 1, 2], ["tab", 1, 3]], "s[1,3*,2]"],
  ["split right", [["split", 1, 2, "right"]], "row(s[1*]|s[2*])"],
  ["split left", [["split", 1, 2, "left"]], "row(s[2*]|s[1*])"],
  ["split below", [["split", 1, 2, "below"]], "col(s[1*]/s[2*])"],
  ["split above", [["split", 1, 2, "above"]], "col(s[2*]/s[1*])"],
  [
    "same direction joins the split",
    [["split", 1, 2, "right"], ["split", 2, 3, "right"]],
    "row(s[1*]|s[2*]|s[3*])",
  ],
  [
    "other direction nests",
    [["split", 1, 2, "right"], ["split", 2, 3, "below"]],
    "row(s[1*]|col(s[2*]/s[3*]))",
  ],
];

for (const [name, steps, want] of BUILDS) {
  Deno.test(`layout: ${name}`, () => {
    const l = build(steps);
    assertEquals(shape(l.root), want);
    // The newest pane is focused; the tree reads back as it is.
    const last = steps.at(-1)?.[2] ?? 1;
    assertEquals(l.focus, paneOf(l, last));
    assertEquals(parseLayout(JSON.parse(JSON.stringify(l))), l);
  });
}

Deno.test("layout: operations leave their argument as it was", () => {
  const l = build([["split", 1, 2, "right"]]);
  const before = JSON.stringify(l);
  addTab(l, paneOf(l, 1), 3);
  splitPane(l, paneOf(l, 2), "below", 4);
  closePane(l, paneOf(l, 2));
  movePane(l, paneOf(l, 2), {
    kind: "side",
    pane: paneOf(l, 1),
    side: "above",
  });
  assertEquals(JSON.stringify(l), before);
});

Deno.test("layout: split sizes halve the anchor's share", () => {
  const l = build([["split", 1, 2, "right"], ["split", 2, 3, "right"]]);
  assert(l.root.kind === "split");
  assertEquals(l.root.sizes, [0.5, 0.25, 0.25]);
});

const CLOSES: [string, Parameters<typeof build>[0], number, string, number][] =
  [
    [
      "a tab: the next one shows",
      [["tab", 1, 2], ["tab", 2, 3]],
      2,
      "s[1,3*]",
      3,
    ],
    ["the last tab: the one before shows", [["tab", 1, 2]], 2, "s[1*]", 1],
    ["a stack: the split goes", [["split", 1, 2, "right"]], 2, "s[1*]", 1],
    [
      "a nested stack: its sibling takes its place",
      [["split", 1, 2, "right"], ["split", 2, 3, "below"]],
      3,
      "row(s[1*]|s[2*])",
      2,
    ],
    [
      "a split of the same direction flattens",
      [["split", 1, 2, "right"], ["split", 2, 3, "below"], [
        "split",
        3,
        4,
        "right",
      ]],
      2,
      "row(s[1*]|s[3*]|s[4*])",
      4, // the focus was not on the closed pane: it stays
    ],
  ];

for (const [name, steps, close, want, focus] of CLOSES) {
  Deno.test(`layout: close ${name}`, () => {
    const l = build(steps);
    const out = closePane(l, paneOf(l, close))!;
    assertEquals(shape(out.root), want);
    assertEquals(out.focus, paneOf(out, focus));
    const sum = out.root.kind === "split"
      ? out.root.sizes.reduce((a, b) => a + b, 0)
      : 1;
    assert(Math.abs(sum - 1) < 1e-9, `sizes sum to ${sum}`);
    parseLayout(out);
  });
}

Deno.test("layout: closing the last pane leaves nothing", () => {
  assertEquals(closePane(newLayout(7), 2), null);
});

Deno.test("layout: a session that ended leaves every pane it had", () => {
  let l = build([["split", 1, 2, "right"]]);
  l = addTab(l, paneOf(l, 1), 2).layout;
  const out = removeSession(l, 2)!;
  assertEquals(shape(out.root), "s[1*]");
  assertEquals(sessionsOf(out), [1]);
  assertEquals(removeSession(newLayout(3), 3), null);
});

const MOVES: [
  string,
  Parameters<typeof build>[0],
  number,
  (l: Layout) => Parameters<typeof movePane>[2],
  string,
][] = [
  [
    "reorder within a stack",
    [["tab", 1, 2], ["tab", 2, 3]],
    1,
    (l) => ({
      kind: "tabs",
      stack: findPane(l, paneOf(l, 1))!.stack.id,
      index: 3,
    }),
    "s[2,3,1*]",
  ],
  [
    "onto another stack's tabs",
    [["split", 1, 2, "right"], ["tab", 1, 3]],
    3,
    (l) => ({
      kind: "tabs",
      stack: findPane(l, paneOf(l, 2))!.stack.id,
      index: 0,
    }),
    "row(s[1*]|s[3*,2])",
  ],
  [
    "onto a pane's edge",
    [["tab", 1, 2]],
    2,
    (l) => ({ kind: "side", pane: paneOf(l, 1), side: "below" }),
    "col(s[1*]/s[2*])",
  ],
  [
    "a shown tab onto its own stack's edge (the drop names it): a split",
    [["tab", 1, 2]],
    2,
    (l) => ({ kind: "side", pane: paneOf(l, 2), side: "below" }),
    "col(s[1*]/s[2*])",
  ],
  [
    "a tab onto its own stack's left edge: a new stack left of it",
    [["tab", 1, 2], ["tab", 2, 3]],
    3,
    (l) => ({ kind: "side", pane: paneOf(l, 3), side: "left" }),
    "row(s[3*]|s[1,2*])",
  ],
  [
    "the only pane of a stack onto its own edge: nothing changes",
    [["split", 1, 2, "right"]],
    2,
    (l) => ({ kind: "side", pane: paneOf(l, 2), side: "left" }),
    "row(s[1*]|s[2*])",
  ],
  [
    "a whole stack's pane onto another edge: its stack goes",
    [["split", 1, 2, "right"], ["split", 2, 3, "below"]],
    3,
    (l) => ({ kind: "side", pane: paneOf(l, 1), side: "left" }),
    "row(s[3*]|s[1*]|s[2*])",
  ],
  [
    "onto the edge of a stack whose neighbour goes",
    [["split", 1, 2, "right"], ["split", 2, 3, "below"], ["tab", 3, 4]],
    1,
    (l) => ({ kind: "side", pane: paneOf(l, 4), side: "left" }),
    "col(s[2*]/row(s[1*]|s[3,4*]))",
  ],
];

for (const [name, steps, moved, drop, want] of MOVES) {
  Deno.test(`layout: move ${name}`, () => {
    const l = build(steps);
    const out = movePane(l, paneOf(l, moved), drop(l));
    assertEquals(shape(out.root), want);
    assertEquals(out.focus, paneOf(out, moved));
    parseLayout(out);
  });
}

Deno.test("layout: neighbours by geometry", () => {
  // row(1 | col(2 / 3)): 1 is left of both; 3 is below 2.
  const l = build([["split", 1, 2, "right"], ["split", 2, 3, "below"]]);
  const [p1, p2, p3] = [1, 2, 3].map((s) => paneOf(l, s));
  assertEquals(neighbour(l, p1, "right"), p2); // 2 and 3 tie on overlap: first
  assertEquals(neighbour(l, p3, "left"), p1);
  assertEquals(neighbour(l, p2, "below"), p3);
  assertEquals(neighbour(l, p3, "above"), p2);
  assertEquals(neighbour(l, p1, "left"), null);
  assertEquals(neighbour(l, p2, "above"), null);
  const rects = stackRects(l);
  assertEquals(rects.get(findPane(l, p3)!.stack.id), {
    x: 0.5,
    y: 0.5,
    width: 0.5,
    height: 0.5,
  });
});

Deno.test("layout: focus, rename and resize", () => {
  let l = build([["tab", 1, 2], ["split", 2, 3, "right"]]);
  l = focusPane(l, paneOf(l, 1));
  assertEquals(shape(l.root), "row(s[1*,2]|s[3*])");
  assertEquals(l.focus, paneOf(l, 1));
  l = renamePane(l, paneOf(l, 1), "  build  ");
  assertEquals(findPane(l, paneOf(l, 1))!.pane.title, "build");
  l = renamePane(l, paneOf(l, 1), " ");
  assertEquals(findPane(l, paneOf(l, 1))!.pane.title, null);
  l = resizeSplit(l, l.root.id, [3, 1]);
  assert(l.root.kind === "split");
  assertEquals(l.root.sizes, [0.75, 0.25]);
  l = resizeSplit(l, l.root.id, [1, 0.0001]);
  assert(l.root.kind === "split" && l.root.sizes[1] > 0.04);
  assertThrows(() => resizeSplit(l, l.root.id, [1]), LayoutError);
  assertThrows(() => resizeSplit(l, 999, [1, 1]), LayoutError);
});

const BAD: [string, unknown, string][] = [
  ["not an object", 3, "not an object"],
  ["no focus", { root: newLayout(1).root, nextId: 3 }, "ids"],
  ["focus not a pane", { ...newLayout(1), focus: 1 }, "focus"],
  [
    "duplicate id",
    {
      ...newLayout(1),
      root: {
        kind: "stack",
        id: 2,
        panes: [{ kind: "pane", id: 2, session: 1, title: null }],
        shown: 2,
      },
    },
    "malformed",
  ],
  ["id past nextId", { ...newLayout(1), nextId: 2 }, "nextId"],
  [
    "split of one",
    {
      ...newLayout(1),
      root: {
        kind: "split",
        id: 5,
        direction: "row",
        children: [newLayout(1).root],
        sizes: [1],
      },
      nextId: 6,
    },
    "2+ children",
  ],
  [
    "empty stack",
    { ...newLayout(1), root: { kind: "stack", id: 1, panes: [], shown: 2 } },
    "no panes",
  ],
];

for (const [name, value, says] of BAD) {
  Deno.test(`layout: parse rejects ${name}`, () => {
    const e = assertThrows(() => parseLayout(value), LayoutError);
    assert(e.message.includes(says), e.message);
  });
}

Deno.test("layout: parse rejects a tree nested too deep", () => {
  let node: unknown = newLayout(1).root;
  let id = 10;
  for (let i = 0; i < 40; i++) {
    node = {
      kind: "split",
      id: id++,
      direction: "row",
      children: [node, {
        kind: "stack",
        id: id++,
        panes: [{ kind: "pane", id: id++, session: 1, title: null }],
        shown: id - 1,
      }],
      sizes: [1, 1],
    };
  }
  assertThrows(
    () => parseLayout({ root: node, focus: 2, nextId: id }),
    LayoutError,
    "deep",
  );
});
