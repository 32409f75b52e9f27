/**
 * Dragging a tab (pointer events): a press on a tab that moves more than
 * a few pixels picks the tab up; while it moves, the place it would go is
 * marked: between two tabs of a tab bar (reorder, or into another stack),
 * on a pane's edge (a new area on that side, splitting it), or on a pane's
 * middle (a tab of that stack). Letting go asks for the move; Escape or a
 * drop nowhere leaves it. A press that does not move is a click: the tab
 * is shown and focused.
 *
 * @module
 */
import type { Drop, Layout, Side } from "../../core/layout.ts";
import { stacks } from "../../core/layout.ts";

/** How far (CSS pixels) a press moves before it is a drag. */
const DRAG_THRESHOLD = 6;
/** The share of a pane's width or height near each edge that splits it. */
const EDGE_SHARE = 0.25;

/** What a tab drag needs from the window. */
export interface TabDragHost {
  layout(): Layout | null;
  /** The press was a click. */
  click(pane: number): void;
  /** The tab was dropped there. */
  move(pane: number, drop: Drop): void;
}

/**
 * The drop for the pointer at (`x`, `y`) over `target`: on a tab bar,
 * before the first tab whose middle is right of x; on a pane, its edge
 * when within {@link EDGE_SHARE}, else its stack's end. Null elsewhere.
 */
export function dropAt(
  layout: Layout,
  target: Element | null,
  x: number,
  y: number,
): { drop: Drop; rect: DOMRect; line?: boolean } | null {
  const stackEl = target?.closest<HTMLElement>(".dt-stack");
  if (!target || !stackEl) return null;
  const stackId = Number(stackEl.dataset.stack);
  const stack = stacks(layout).find((s) => s.id === stackId);
  if (!stack) return null;
  const bar = stackEl.querySelector<HTMLElement>(":scope > .dt-tabbar")!;
  const body = stackEl.querySelector<HTMLElement>(":scope > .dt-stack-body")!;
  if (bar.contains(target)) {
    const tabs = [...bar.querySelectorAll<HTMLElement>(".dt-tab")];
    let index = tabs.findIndex((t) => {
      const r = t.getBoundingClientRect();
      return x < r.left + r.width / 2;
    });
    if (index < 0) index = tabs.length;
    const ref = tabs[index]?.getBoundingClientRect();
    const last = tabs.at(-1)?.getBoundingClientRect();
    const at = ref
      ? ref.left
      : last
      ? last.right
      : bar.getBoundingClientRect().left;
    const b = bar.getBoundingClientRect();
    return {
      drop: { kind: "tabs", stack: stackId, index },
      rect: new DOMRect(at - 1, b.top, 3, b.height),
      line: true,
    };
  }
  const r = body.getBoundingClientRect();
  const fx = (x - r.left) / r.width, fy = (y - r.top) / r.height;
  const near: [number, Side][] = [
    [fx, "left"],
    [1 - fx, "right"],
    [fy, "above"],
    [1 - fy, "below"],
  ];
  near.sort((p, q) => p[0] - q[0]);
  const [dist, side] = near[0];
  if (dist > EDGE_SHARE) {
    return {
      drop: { kind: "tabs", stack: stackId, index: stack.panes.length },
      rect: r,
    };
  }
  const half = side === "left"
    ? new DOMRect(r.left, r.top, r.width / 2, r.height)
    : side === "right"
    ? new DOMRect(r.left + r.width / 2, r.top, r.width / 2, r.height)
    : side === "above"
    ? new DOMRect(r.left, r.top, r.width, r.height / 2)
    : new DOMRect(r.left, r.top + r.height / 2, r.width, r.height / 2);
  return { drop: { kind: "side", pane: stack.shown, side }, rect: half };
}

/** Follows a press on pane `pane`'s tab that begins with `e`. */
export function dragTab(
  e: PointerEvent,
  pane: number,
  host: TabDragHost,
): void {
  const tab = e.currentTarget as HTMLElement;
  const doc = tab.ownerDocument;
  const sx = e.clientX, sy = e.clientY;
  let dragging = false;
  let ghost: HTMLElement | null = null, mark: HTMLElement | null = null;
  let drop: Drop | null = null;
  tab.setPointerCapture(e.pointerId);
  const start = () => {
    dragging = true;
    ghost = doc.createElement("div");
    ghost.className = "dt-tab-ghost";
    ghost.textContent = tab.querySelector(".dt-tab-label")?.textContent ?? "";
    mark = doc.createElement("div");
    mark.className = "dt-drop-mark";
    mark.hidden = true;
    doc.body.append(ghost, mark);
    tab.classList.add("dt-dragged");
  };
  const move = (ev: PointerEvent) => {
    if (!dragging) {
      if (Math.hypot(ev.clientX - sx, ev.clientY - sy) < DRAG_THRESHOLD) {
        return;
      }
      start();
    }
    ghost!.style.left = `${ev.clientX + 8}px`;
    ghost!.style.top = `${ev.clientY + 8}px`;
    const layout = host.layout();
    const target = doc.elementFromPoint(ev.clientX, ev.clientY);
    const at = layout && dropAt(layout, target, ev.clientX, ev.clientY);
    drop = at?.drop ?? null;
    mark!.hidden = !at;
    if (at) {
      Object.assign(mark!.style, {
        left: `${at.rect.left}px`,
        top: `${at.rect.top}px`,
        width: `${at.rect.width}px`,
        height: `${at.rect.height}px`,
      });
      mark!.classList.toggle("dt-line", at.line === true);
    }
  };
  const finish = (ev: Event) => {
    tab.removeEventListener("pointermove", move);
    tab.removeEventListener("pointerup", finish);
    tab.removeEventListener("pointercancel", finish);
    doc.removeEventListener("keydown", escape, true);
    ghost?.remove();
    mark?.remove();
    tab.classList.remove("dt-dragged");
    if (ev.type !== "pointerup") return;
    if (!dragging) host.click(pane);
    else if (drop) host.move(pane, drop);
  };
  const escape = (ev: KeyboardEvent) => {
    if (ev.key !== "Escape") return;
    ev.preventDefault();
    ev.stopPropagation();
    drop = null;
    finish(new Event("cancel"));
  };
  tab.addEventListener("pointermove", move);
  tab.addEventListener("pointerup", finish);
  tab.addEventListener("pointercancel", finish);
  doc.addEventListener("keydown", escape, true);
}
