/**
 * The layout of one top-level window: a tree of splits whose leaves are
 * stacks of panes. A pane shows one session; a stack shows one of its
 * panes at a time and has a tab per pane; a split divides its area among
 * its children in a row (side by side) or a column (one above the other).
 *
 * The server keeps each window's layout (so a window that comes back
 * finds it); the page draws it and asks for changes. Both apply the same
 * pure operations below: each returns a new layout and leaves its argument
 * as it was. Ids are numbers unique within one layout (`nextId` hands them
 * out), so a pane keeps its id wherever it moves.
 *
 * @module
 */

/** A terminal in a window: it shows one session and is a tab of its stack. */
export interface Pane {
  kind: "pane";
  id: number;
  /** The session it shows. */
  session: number;
  /** The name the user gave its tab, or null: the tab says what runs. */
  title: string | null;
}

/** An area of the window with a tab per pane, showing one pane. */
export interface Stack {
  kind: "stack";
  id: number;
  /** In tab order; never empty. */
  panes: Pane[];
  /** The id of the pane shown. */
  shown: number;
}

/** An area divided among its children, side by side or one above the other. */
export interface Split {
  kind: "split";
  id: number;
  /** "row": children side by side (left to right); "column": top to bottom. */
  direction: "row" | "column";
  /** At least two. */
  children: LayoutNode[];
  /** Each child's share of the area, in (0, 1], summing to 1. */
  sizes: number[];
}

/** A node of the layout tree. */
export type LayoutNode = Stack | Split;

/** A window's layout. */
export interface Layout {
  root: LayoutNode;
  /** The id of the focused pane (shown in its stack). */
  focus: number;
  /** The next id to hand out. */
  nextId: number;
}

/** Where a new or moved pane goes, relative to a pane's stack. */
export type Side = "left" | "right" | "above" | "below";

/** The sides, for validation and menus. */
export const SIDES: readonly Side[] = ["left", "right", "above", "below"];

/** The smallest share of a split a child keeps when resized. */
export const MIN_SHARE = 0.05;

/** A pane found in a layout, with its stack and the splits above it. */
export interface Found {
  pane: Pane;
  stack: Stack;
  /** The splits from the root down to the stack's parent. */
  path: Split[];
}

/** A new layout with one pane showing `session`. */
export function newLayout(session: number): Layout {
  const pane: Pane = { kind: "pane", id: 2, session, title: null };
  return {
    root: { kind: "stack", id: 1, panes: [pane], shown: 2 },
    focus: 2,
    nextId: 3,
  };
}

/** Every pane, in order (left to right, top to bottom, then tab order). */
export function panes(layout: Layout): Pane[] {
  const out: Pane[] = [];
  walkStacks(layout.root, (s) => out.push(...s.panes));
  return out;
}

/** Every stack, in order. */
export function stacks(layout: Layout): Stack[] {
  const out: Stack[] = [];
  walkStacks(layout.root, (s) => out.push(s));
  return out;
}

/** The sessions the layout shows (each once). */
export function sessionsOf(layout: Layout): number[] {
  return [...new Set(panes(layout).map((p) => p.session))];
}

/** The pane `id`, its stack and the splits above it; undefined if absent. */
export function findPane(layout: Layout, id: number): Found | undefined {
  const path: Split[] = [];
  const visit = (node: LayoutNode): Found | undefined => {
    if (node.kind === "stack") {
      const pane = node.panes.find((p) => p.id === id);
      return pane ? { pane, stack: node, path: [...path] } : undefined;
    }
    path.push(node);
    for (const child of node.children) {
      const found = visit(child);
      if (found) return found;
    }
    path.pop();
    return undefined;
  };
  return visit(layout.root);
}

/** A layout operation failed: the message says why. */
export class LayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LayoutError";
  }
}

/** A new pane showing `session` as a tab after pane `beside`, shown and focused. */
export function addTab(
  layout: Layout,
  beside: number,
  session: number,
): { layout: Layout; pane: Pane } {
  const out = structuredClone(layout);
  const { stack } = mustFind(out, beside);
  const pane = newPane(out, session);
  const at = stack.panes.findIndex((p) => p.id === beside);
  stack.panes.splice(at + 1, 0, pane);
  stack.shown = out.focus = pane.id;
  return { layout: out, pane };
}

/**
 * A new pane showing `session` in a new stack on `side` of pane `beside`'s
 * stack, taking half of that stack's area; it is focused.
 */
export function splitPane(
  layout: Layout,
  beside: number,
  side: Side,
  session: number,
): { layout: Layout; pane: Pane } {
  const out = structuredClone(layout);
  const { stack, path } = mustFind(out, beside);
  const pane = newPane(out, session);
  const fresh: Stack = {
    kind: "stack",
    id: out.nextId++,
    panes: [pane],
    shown: pane.id,
  };
  placeBeside(out, stack, path, side, fresh);
  out.focus = pane.id;
  return { layout: out, pane };
}

/** Where a dragged pane is dropped. */
export type Drop =
  /** Into a stack's tabs, before the tab at `index` (its length: last). */
  | { kind: "tabs"; stack: number; index: number }
  /** Onto the edge of pane `pane`'s stack: a new stack on that side. */
  | { kind: "side"; pane: number; side: Side };

/** Pane `id` moved to `drop`; it is shown and focused there. */
export function movePane(layout: Layout, id: number, drop: Drop): Layout {
  const out = structuredClone(layout);
  const from = mustFind(out, id);
  let sideStack: Stack | undefined;
  if (drop.kind === "side") {
    const target = mustFind(out, drop.pane);
    // Its own stack's edge, when it is alone there: nothing would change.
    if (target.stack === from.stack && from.stack.panes.length === 1) {
      return out;
    }
    // The stack, not the pane: the pane named may be the one that moves
    // (a tab dropped on its own stack's edge).
    sideStack = target.stack;
  }
  const targetStack = drop.kind === "tabs"
    ? mustFindStack(out, drop.stack)
    : undefined;
  let index = drop.kind === "tabs" ? drop.index : 0;
  if (targetStack === from.stack) {
    // Reordering within a stack: the index counts the pane itself.
    const at = from.stack.panes.indexOf(from.pane);
    if (at < index) index--;
  }
  detach(out, from);
  if (drop.kind === "tabs") {
    const stack = targetStack!;
    const i = Math.max(0, Math.min(index, stack.panes.length));
    stack.panes.splice(i, 0, from.pane);
    stack.shown = from.pane.id;
  } else {
    // The stack keeps a pane (it was not emptied: see above).
    const target = mustFind(out, sideStack!.shown);
    const fresh: Stack = {
      kind: "stack",
      id: out.nextId++,
      panes: [from.pane],
      shown: from.pane.id,
    };
    placeBeside(out, target.stack, target.path, drop.side, fresh);
  }
  out.focus = from.pane.id;
  return out;
}

/**
 * Pane `id` taken out; null when it was the last. Its stack shows the tab
 * next to it; focus goes there (or to the nearest stack) if it was on it.
 */
export function closePane(layout: Layout, id: number): Layout | null {
  const out = structuredClone(layout);
  const found = mustFind(out, id);
  if (panes(out).length === 1) return null;
  const survivor = detach(out, found);
  if (out.focus === id) out.focus = survivor;
  return out;
}

/** Every pane showing `session` taken out (it ended); null when none is left. */
export function removeSession(layout: Layout, session: number): Layout | null {
  let out: Layout | null = layout;
  for (const p of panes(layout)) {
    if (p.session === session && out) out = closePane(out, p.id);
  }
  return out === layout ? structuredClone(layout) : out;
}

/** Pane `id` shown in its stack and focused. */
export function focusPane(layout: Layout, id: number): Layout {
  const out = structuredClone(layout);
  const { stack } = mustFind(out, id);
  stack.shown = out.focus = id;
  return out;
}

/** Pane `id`'s tab named `title` (null: back to what runs). */
export function renamePane(
  layout: Layout,
  id: number,
  title: string | null,
): Layout {
  const out = structuredClone(layout);
  const t = title?.trim().slice(0, 200) ?? "";
  mustFind(out, id).pane.title = t === "" ? null : t;
  return out;
}

/** Pane `id` shows `session` instead. */
export function setSession(
  layout: Layout,
  id: number,
  session: number,
): Layout {
  const out = structuredClone(layout);
  mustFind(out, id).pane.session = session;
  return out;
}

/**
 * Split `id`'s children get `sizes` (one per child, positive; scaled to sum
 * to 1, each at least {@link MIN_SHARE}).
 */
export function resizeSplit(
  layout: Layout,
  id: number,
  sizes: readonly number[],
): Layout {
  const out = structuredClone(layout);
  const split = findSplit(out.root, id);
  if (!split) throw new LayoutError(`no split ${id}`);
  if (
    sizes.length !== split.children.length ||
    !sizes.every((s) => Number.isFinite(s) && s > 0)
  ) {
    throw new LayoutError(
      `split ${id} needs ${split.children.length} positive sizes`,
    );
  }
  split.sizes = normalize(sizes);
  return out;
}

/** A rectangle in the window, as fractions of its width and height. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Each stack's area in the window (fractions), by stack id. */
export function stackRects(layout: Layout): Map<number, Rect> {
  const out = new Map<number, Rect>();
  const visit = (node: LayoutNode, r: Rect) => {
    if (node.kind === "stack") {
      out.set(node.id, r);
      return;
    }
    let at = 0;
    node.children.forEach((child, i) => {
      const share = node.sizes[i];
      visit(
        child,
        node.direction === "row"
          ? {
            x: r.x + at * r.width,
            y: r.y,
            width: share * r.width,
            height: r.height,
          }
          : {
            x: r.x,
            y: r.y + at * r.height,
            width: r.width,
            height: share * r.height,
          },
      );
      at += share;
    });
  };
  visit(layout.root, { x: 0, y: 0, width: 1, height: 1 });
  return out;
}

/**
 * The pane shown in the nearest stack on `side` of pane `id`'s stack (for
 * moving between panes with the arrows), or null when there is none: the
 * stacks that touch that edge and overlap it across, the one overlapping
 * most first.
 */
export function neighbour(
  layout: Layout,
  id: number,
  side: Side,
): number | null {
  const { stack } = mustFind(layout, id);
  const rects = stackRects(layout);
  const from = rects.get(stack.id)!;
  const eps = 1e-9;
  let best: { stack: Stack; gap: number; overlap: number } | null = null;
  for (const s of stacks(layout)) {
    if (s === stack) continue;
    const r = rects.get(s.id)!;
    const horizontal = side === "left" || side === "right";
    const gap = side === "left"
      ? from.x - (r.x + r.width)
      : side === "right"
      ? r.x - (from.x + from.width)
      : side === "above"
      ? from.y - (r.y + r.height)
      : r.y - (from.y + from.height);
    if (gap < -eps) continue;
    const overlap = horizontal
      ? Math.min(from.y + from.height, r.y + r.height) - Math.max(from.y, r.y)
      : Math.min(from.x + from.width, r.x + r.width) - Math.max(from.x, r.x);
    if (overlap <= eps) continue;
    if (
      best === null || gap < best.gap - eps ||
      (Math.abs(gap - best.gap) <= eps && overlap > best.overlap)
    ) best = { stack: s, gap, overlap };
  }
  return best ? best.stack.shown : null;
}

/**
 * A layout read from elsewhere (a message, a file), checked: every node
 * well formed, ids unique and below `nextId`, the focus a pane. Throws a
 * {@link LayoutError} saying what is wrong.
 */
export function parseLayout(value: unknown): Layout {
  const o = value as Layout;
  if (typeof o !== "object" || o === null) {
    throw new LayoutError("not an object");
  }
  if (!isId(o.focus) || !isId(o.nextId)) {
    throw new LayoutError("focus and nextId must be ids");
  }
  const ids = new Set<number>();
  const root = checkNode(o.root, ids, 0);
  for (const id of ids) {
    if (id >= o.nextId) throw new LayoutError(`id ${id} not below nextId`);
  }
  const layout: Layout = { root, focus: o.focus, nextId: o.nextId };
  if (!findPane(layout, o.focus)) throw new LayoutError("focus is not a pane");
  return layout;
}

// Internals.

/** The deepest a layout may nest (a guard for what comes from elsewhere). */
const MAX_DEPTH = 32;

function checkNode(v: unknown, ids: Set<number>, depth: number): LayoutNode {
  const n = v as LayoutNode;
  if (depth > MAX_DEPTH) throw new LayoutError("layout nested too deep");
  if (typeof n !== "object" || n === null || !isId(n.id) || ids.has(n.id)) {
    throw new LayoutError("a node needs a unique id");
  }
  ids.add(n.id);
  if (n.kind === "stack") {
    if (!Array.isArray(n.panes) || n.panes.length === 0) {
      throw new LayoutError(`stack ${n.id} has no panes`);
    }
    const paneList = n.panes.map((p): Pane => {
      if (
        typeof p !== "object" || p === null || p.kind !== "pane" ||
        !isId(p.id) || ids.has(p.id) || !Number.isInteger(p.session) ||
        !(p.title === null || typeof p.title === "string")
      ) throw new LayoutError(`a pane of stack ${n.id} is malformed`);
      ids.add(p.id);
      return { kind: "pane", id: p.id, session: p.session, title: p.title };
    });
    if (!paneList.some((p) => p.id === n.shown)) {
      throw new LayoutError(`stack ${n.id} shows a pane it does not have`);
    }
    return { kind: "stack", id: n.id, panes: paneList, shown: n.shown };
  }
  if (n.kind !== "split") {
    throw new LayoutError(`node ${(n as LayoutNode).id}: unknown kind`);
  }
  if (n.direction !== "row" && n.direction !== "column") {
    throw new LayoutError(`split ${n.id}: direction must be row or column`);
  }
  if (
    !Array.isArray(n.children) || n.children.length < 2 ||
    !Array.isArray(n.sizes) || n.sizes.length !== n.children.length ||
    !n.sizes.every((s) => typeof s === "number" && Number.isFinite(s) && s > 0)
  ) throw new LayoutError(`split ${n.id} needs 2+ children with sizes`);
  return {
    kind: "split",
    id: n.id,
    direction: n.direction,
    children: n.children.map((c) => checkNode(c, ids, depth + 1)),
    sizes: normalize(n.sizes),
  };
}

function isId(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) > 0;
}

function newPane(layout: Layout, session: number): Pane {
  return { kind: "pane", id: layout.nextId++, session, title: null };
}

function mustFind(layout: Layout, id: number): Found {
  const found = findPane(layout, id);
  if (!found) throw new LayoutError(`no pane ${id}`);
  return found;
}

function mustFindStack(layout: Layout, id: number): Stack {
  const s = stacks(layout).find((s) => s.id === id);
  if (!s) throw new LayoutError(`no stack ${id}`);
  return s;
}

function findSplit(node: LayoutNode, id: number): Split | undefined {
  if (node.kind === "stack") return undefined;
  if (node.id === id) return node;
  for (const c of node.children) {
    const s = findSplit(c, id);
    if (s) return s;
  }
  return undefined;
}

function walkStacks(node: LayoutNode, f: (s: Stack) => void): void {
  if (node.kind === "stack") f(node);
  else for (const c of node.children) walkStacks(c, f);
}

function normalize(sizes: readonly number[]): number[] {
  const floored = sizes.map((s) => Math.max(s, 0));
  const sum = floored.reduce((a, b) => a + b, 0) || 1;
  const shares = floored.map((s) => Math.max(s / sum, MIN_SHARE));
  const total = shares.reduce((a, b) => a + b, 0);
  return shares.map((s) => s / total);
}

/** Puts `fresh` on `side` of `stack` (whose ancestors are `path`). */
function placeBeside(
  layout: Layout,
  stack: Stack,
  path: Split[],
  side: Side,
  fresh: Stack,
): void {
  const direction = side === "left" || side === "right" ? "row" : "column";
  const after = side === "right" || side === "below";
  const parent = path.at(-1);
  if (parent && parent.direction === direction) {
    // A sibling in the same split: the stack gives it half its share.
    const i = parent.children.indexOf(stack);
    const half = parent.sizes[i] / 2;
    parent.sizes[i] = half;
    parent.children.splice(after ? i + 1 : i, 0, fresh);
    parent.sizes.splice(after ? i + 1 : i, 0, half);
    return;
  }
  const split: Split = {
    kind: "split",
    id: layout.nextId++,
    direction,
    children: after ? [stack, fresh] : [fresh, stack],
    sizes: [0.5, 0.5],
  };
  if (!parent) layout.root = split;
  else parent.children[parent.children.indexOf(stack)] = split;
}

/**
 * Takes `found.pane` out of its stack, removing the stack when it empties
 * and a split when one child is left. Returns the pane to focus instead:
 * the stack's next shown tab, or the nearest stack's shown pane.
 */
function detach(layout: Layout, found: Found): number {
  const { pane, stack, path } = found;
  const at = stack.panes.indexOf(pane);
  stack.panes.splice(at, 1);
  if (stack.panes.length > 0) {
    if (stack.shown === pane.id) {
      stack.shown = stack.panes[Math.min(at, stack.panes.length - 1)].id;
    }
    return stack.shown;
  }
  const parent = path.at(-1);
  if (!parent) throw new LayoutError("the last pane cannot be detached");
  const i = parent.children.indexOf(stack);
  const [share] = parent.sizes.splice(i, 1);
  parent.children.splice(i, 1);
  // Its area goes to the neighbour that takes its place.
  const heir = Math.min(i, parent.children.length - 1);
  parent.sizes[heir] += share;
  const next = firstStack(parent.children[Math.max(0, i - 1)]);
  if (parent.children.length === 1) {
    const only = parent.children[0];
    const grand = path.at(-2);
    if (!grand) layout.root = only;
    else if (only.kind === "split" && only.direction === grand.direction) {
      // Same direction as the grandparent: its children join it.
      const j = grand.children.indexOf(parent);
      const share = grand.sizes[j];
      grand.children.splice(j, 1, ...only.children);
      grand.sizes.splice(j, 1, ...only.sizes.map((s) => s * share));
    } else grand.children[grand.children.indexOf(parent)] = only;
  }
  return next.shown;
}

function firstStack(node: LayoutNode): Stack {
  return node.kind === "stack" ? node : firstStack(node.children[0]);
}
