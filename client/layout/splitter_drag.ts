/**
 * Dragging a splitter (pointer events): the two areas beside it grow and
 * shrink under the pointer (their terminals refit as they go, so each PTY
 * follows its pane), and when the pointer is let go the split's new sizes
 * go to the server, which keeps them in the layout.
 *
 * @module
 */

/** The smallest an area gets by dragging, in CSS pixels. */
const MIN_PX = 40;

/**
 * Follows a drag that starts with `e` on the splitter between children
 * `index` and `index + 1` of the split element `split`; `done` gets the
 * children's sizes (pixels: the server scales them) when it ends.
 */
export function dragSplitter(
  e: PointerEvent,
  split: HTMLElement,
  index: number,
  done: (sizes: number[]) => void,
): void {
  if (e.button !== 0) return;
  const splitter = e.currentTarget as HTMLElement;
  const row = split.classList.contains("dt-split-row");
  const nodes = [...split.children].filter((c) =>
    !c.classList.contains("dt-splitter")
  ) as HTMLElement[];
  const extent = (el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    return row ? r.width : r.height;
  };
  const sizes = nodes.map(extent);
  const a = sizes[index], b = sizes[index + 1];
  if (a === undefined || b === undefined) return;
  e.preventDefault();
  const start = row ? e.clientX : e.clientY;
  const apply = () =>
    nodes.forEach((n, i) => n.style.flex = `${sizes[i]} 1 0px`);
  splitter.setPointerCapture(e.pointerId);
  splitter.classList.add("dt-dragging");
  const move = (ev: PointerEvent) => {
    const delta = (row ? ev.clientX : ev.clientY) - start;
    const total = a + b;
    const next = Math.min(Math.max(a + delta, MIN_PX), total - MIN_PX);
    sizes[index] = next;
    sizes[index + 1] = total - next;
    apply();
  };
  const end = (ev: PointerEvent) => {
    splitter.removeEventListener("pointermove", move);
    splitter.removeEventListener("pointerup", end);
    splitter.removeEventListener("pointercancel", end);
    splitter.classList.remove("dt-dragging");
    if (splitter.hasPointerCapture(ev.pointerId)) {
      splitter.releasePointerCapture(ev.pointerId);
    }
    if (ev.type === "pointerup") done([...sizes]);
  };
  splitter.addEventListener("pointermove", move);
  splitter.addEventListener("pointerup", end);
  splitter.addEventListener("pointercancel", end);
}
