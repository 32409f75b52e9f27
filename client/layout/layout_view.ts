/**
 * Draws a window's layout (core/layout.ts) into the page: a split is a
 * flex box of its children with a splitter between each two, a stack is
 * a tab bar over the pane it shows, a pane is the element its terminal
 * lives in (the host makes it; it is kept across layouts, only moved when
 * its stack or split changes, so a terminal keeps its DOM and scroll
 * position). The tab bar is left out while the window has one pane: it
 * then looks as a single terminal always did.
 *
 * What the user does to tabs and splitters (click, drag, close, rename)
 * goes to the host, which asks the server; the layout that comes back is
 * drawn with {@link LayoutView.render}.
 *
 * @module
 */
import {
  type Layout,
  type LayoutNode,
  type Pane,
  panes,
  type Split,
  type Stack,
} from "../../core/layout.ts";
import { type TabLabel, tabText } from "./tab_label.ts";

/** What the drawing asks of the window. */
export interface LayoutViewHost {
  /** The element of pane `pane` (made once, kept). */
  paneElement(pane: Pane): HTMLElement;
  /** What pane `pane`'s tab says. */
  tabLabel(pane: Pane): TabLabel;
  /** A tab was clicked. */
  focusPane(id: number): void;
  /** A tab's close button was clicked. */
  closePane(id: number): void;
  /** A tab was renamed (null: back to what runs). */
  renamePane(id: number, title: string | null): void;
  /** A pointer went down on a tab (a drag may start: client/layout/tab_drag.ts). */
  tabPointerDown(e: PointerEvent, pane: number): void;
  /** A pointer went down on a splitter between children `index` and `index + 1`. */
  splitterPointerDown(e: PointerEvent, split: number, index: number): void;
  /** A splitter was moved by a key: split `split`'s children get `sizes`. */
  resizeSplit(split: number, sizes: number[]): void;
}

/** How far an arrow key moves a splitter (a share of its split). */
const SPLITTER_STEP = 0.05;

/** The elements of one layout, by node id. */
export class LayoutView {
  readonly container: HTMLElement;
  readonly #host: LayoutViewHost;
  readonly #doc: Document;
  #stacks = new Map<number, HTMLElement>();
  #splits = new Map<number, HTMLElement>();
  #tabs = new Map<number, HTMLElement>();
  #layout: Layout | null = null;

  constructor(container: HTMLElement, host: LayoutViewHost) {
    this.container = container;
    this.#host = host;
    this.#doc = container.ownerDocument;
    container.classList.add("dt-layout");
  }

  /** The layout drawn last. */
  get layout(): Layout | null {
    return this.#layout;
  }

  /** Draws `layout`, keeping the elements of the nodes it still has. */
  render(layout: Layout): void {
    this.#layout = layout;
    const single = panes(layout).length === 1;
    this.container.classList.toggle("dt-single", single);
    const seenStacks = new Set<number>(), seenSplits = new Set<number>();
    const seenTabs = new Set<number>();
    const build = (node: LayoutNode): HTMLElement => {
      if (node.kind === "stack") {
        seenStacks.add(node.id);
        for (const p of node.panes) seenTabs.add(p.id);
        return this.#stack(node, layout.focus);
      }
      seenSplits.add(node.id);
      return this.#split(node, node.children.map(build));
    };
    const root = build(layout.root);
    placeChildren(this.container, [root]);
    this.#landmarks(single);
    for (const [id, el] of this.#stacks) {
      if (!seenStacks.has(id)) (el.remove(), this.#stacks.delete(id));
    }
    for (const [id, el] of this.#splits) {
      if (!seenSplits.has(id)) (el.remove(), this.#splits.delete(id));
    }
    for (const id of this.#tabs.keys()) {
      if (!seenTabs.has(id)) this.#tabs.delete(id);
    }
  }

  /**
   * The page's main landmark: the terminal while the window has one pane
   * (client/a11y/view_a11y.ts makes it so); with more, the layout, named
   * "Terminals", with each terminal a region in it. (Else the first
   * terminal's pane may be a tab not shown, and the page has no main
   * landmark: axe's landmark-one-main; the tab bars and splitters would
   * be outside every landmark: axe's region.)
   */
  #landmarks(single: boolean): void {
    const c = this.container;
    if (single) {
      c.removeAttribute("role");
      c.removeAttribute("aria-label");
    } else {
      c.setAttribute("role", "main");
      c.setAttribute("aria-label", "Terminals");
    }
    const terminals = c.querySelectorAll<HTMLElement>(
      '[aria-roledescription="terminal"]',
    );
    for (const t of terminals) {
      t.setAttribute("role", single ? "main" : "region");
    }
  }

  /** Redraws pane `id`'s tab label (its title or marks changed). */
  updateTab(pane: Pane): void {
    const tab = this.#tabs.get(pane.id);
    if (tab) this.#fillTab(tab, pane);
  }

  /** The tab element of pane `id`, if drawn. */
  tabElement(id: number): HTMLElement | undefined {
    return this.#tabs.get(id);
  }

  /** The element of stack `id`, if drawn. */
  stackElement(id: number): HTMLElement | undefined {
    return this.#stacks.get(id);
  }

  /** The element of split `id`, if drawn. */
  splitElement(id: number): HTMLElement | undefined {
    return this.#splits.get(id);
  }

  /** Lets the user rename pane `id`'s tab in place (Enter keeps, Escape drops). */
  editTitle(pane: Pane): void {
    const tab = this.#tabs.get(pane.id);
    const stack = tab?.closest<HTMLElement>(".dt-stack");
    if (!tab || !stack) return;
    stack.classList.add("dt-editing");
    const input = this.#doc.createElement("input");
    input.className = "dt-tab-edit";
    input.value = pane.title ?? tabText(this.#host.tabLabel(pane));
    input.setAttribute("aria-label", "Tab name");
    const label = tab.querySelector(".dt-tab-label")!;
    label.replaceChildren(input);
    input.select();
    input.focus();
    let done = false;
    const finish = (keep: boolean) => {
      if (done) return;
      done = true;
      stack.classList.remove("dt-editing");
      input.remove();
      this.#fillTab(tab, pane);
      if (keep) this.#host.renamePane(pane.id, input.value.trim() || null);
      else this.#host.focusPane(pane.id);
    };
    input.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Enter") finish(true);
      else if (e.key === "Escape") finish(false);
    });
    input.addEventListener("blur", () => finish(true));
  }

  #split(node: Split, children: HTMLElement[]): HTMLElement {
    let el = this.#splits.get(node.id);
    if (!el) {
      el = this.#doc.createElement("div");
      el.className = "dt-split";
      el.dataset.split = String(node.id);
      this.#splits.set(node.id, el);
    }
    el.classList.toggle("dt-split-row", node.direction === "row");
    el.classList.toggle("dt-split-column", node.direction === "column");
    const items: HTMLElement[] = [];
    children.forEach((child, i) => {
      child.style.flex = `${node.sizes[i]} 1 0px`;
      if (i > 0) {
        const sp = this.#splitter(el!, node.id, i - 1);
        // A separator between side-by-side panes stands upright.
        sp.setAttribute(
          "aria-orientation",
          node.direction === "row" ? "vertical" : "horizontal",
        );
        const before = node.sizes.slice(0, i).reduce((a, b) => a + b, 0);
        sp.setAttribute("aria-valuenow", String(Math.round(before * 100)));
        items.push(sp);
      }
      items.push(child);
    });
    placeChildren(el, items);
    return el;
  }

  #splitter(split: HTMLElement, id: number, index: number): HTMLElement {
    const existing = split.querySelector<HTMLElement>(
      `:scope > .dt-splitter[data-index="${index}"]`,
    );
    if (existing) return existing;
    const s = this.#doc.createElement("div");
    s.className = "dt-splitter";
    s.dataset.index = String(index);
    s.setAttribute("role", "separator");
    s.setAttribute("aria-label", "Pane divider (arrow keys move it)");
    s.setAttribute("aria-valuemin", "0");
    s.setAttribute("aria-valuemax", "100");
    s.tabIndex = 0;
    s.addEventListener("pointerdown", (e) => {
      this.#host.splitterPointerDown(e, id, Number(s.dataset.index));
    });
    s.addEventListener("keydown", (e) => {
      const dir = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[
        e.key
      ];
      if (dir === undefined || e.ctrlKey || e.altKey || e.metaKey) return;
      const node = this.#layout && findSplit(this.#layout.root, id);
      if (!node) return;
      e.preventDefault();
      e.stopPropagation();
      const i = Number(s.dataset.index);
      const sizes = [...node.sizes];
      const step = Math.min(
        SPLITTER_STEP,
        dir < 0 ? sizes[i] - 0.05 : sizes[i + 1] - 0.05,
      );
      if (step <= 0) return;
      sizes[i] += dir * step;
      sizes[i + 1] -= dir * step;
      this.#host.resizeSplit(id, sizes);
    });
    return s;
  }

  #stack(node: Stack, focus: number): HTMLElement {
    let el = this.#stacks.get(node.id);
    if (!el) {
      el = this.#doc.createElement("div");
      el.className = "dt-stack";
      el.dataset.stack = String(node.id);
      const bar = this.#doc.createElement("div");
      bar.className = "dt-tabbar";
      bar.setAttribute("role", "tablist");
      bar.setAttribute("aria-label", "Tabs");
      const body = this.#doc.createElement("div");
      body.className = "dt-stack-body";
      el.append(bar, body);
      this.#stacks.set(node.id, el);
    }
    el.style.flex ||= "1 1 0px";
    const [bar, body] = [el.children[0], el.children[1]] as HTMLElement[];
    const focused = node.panes.some((p) => p.id === focus);
    el.classList.toggle("dt-stack-focused", focused);
    placeChildren(bar, node.panes.map((p) => this.#tab(p, node, focus)));
    const single = this.container.classList.contains("dt-single");
    const elements = node.panes.map((p) => {
      const pe = this.#host.paneElement(p);
      const shown = p.id === node.shown;
      if (pe.hidden === shown) pe.hidden = !shown;
      pe.classList.toggle("dt-pane-focused", p.id === focus);
      labelPanel(pe, p.id, single);
      return pe;
    });
    placeChildren(body, elements);
    return el;
  }

  #tab(pane: Pane, stack: Stack, focus: number): HTMLElement {
    let tab = this.#tabs.get(pane.id);
    if (!tab) {
      tab = this.#doc.createElement("div");
      tab.className = "dt-tab";
      tab.setAttribute("role", "tab");
      tab.id = tabId(pane.id);
      tab.setAttribute("aria-controls", panelId(pane.id));
      tab.setAttribute("aria-keyshortcuts", "Delete");
      tab.dataset.pane = String(pane.id);
      const marks = this.#doc.createElement("span");
      marks.className = "dt-tab-marks";
      const label = this.#doc.createElement("span");
      label.className = "dt-tab-label";
      // For the pointer only: a tab's children are presentational (no
      // control may be nested in it: axe's nested-interactive); the
      // keyboard closes a tab with Delete (aria-keyshortcuts), or the menu.
      const close = this.#doc.createElement("span");
      close.className = "dt-tab-close";
      close.textContent = "\u00d7";
      close.title = "Close (Delete)";
      close.setAttribute("aria-hidden", "true");
      close.addEventListener("pointerdown", (e) => e.stopPropagation());
      close.addEventListener("mousedown", (e) => e.preventDefault());
      close.addEventListener("click", () => this.#host.closePane(pane.id));
      tab.append(marks, label, close);
      const id = pane.id;
      // The keyboard, as a tab list does it: Enter or Space shows the tab,
      // the arrows (Home, End) move along the tabs, Delete closes one.
      tab.addEventListener("keydown", (e) => {
        if (e.ctrlKey || e.altKey || e.metaKey) return;
        const tabs = Array.from(
          tab!.parentElement?.querySelectorAll<HTMLElement>(".dt-tab") ?? [],
        );
        const at = tabs.indexOf(tab!);
        const to = e.key === "ArrowRight"
          ? tabs[(at + 1) % tabs.length]
          : e.key === "ArrowLeft"
          ? tabs[(at - 1 + tabs.length) % tabs.length]
          : e.key === "Home"
          ? tabs[0]
          : e.key === "End"
          ? tabs.at(-1)
          : undefined;
        if (to) to.focus();
        else if (e.key === "Enter" || e.key === " ") this.#host.focusPane(id);
        else if (e.key === "Delete") this.#host.closePane(id);
        else return;
        e.preventDefault();
        e.stopPropagation();
      });
      tab.addEventListener("pointerdown", (e) => {
        if (e.button === 0) this.#host.tabPointerDown(e, id);
      });
      tab.addEventListener("dblclick", () => {
        const p = this.#layout && panes(this.#layout).find((p) => p.id === id);
        if (p) this.editTitle(p);
      });
      this.#tabs.set(pane.id, tab);
    }
    const shown = pane.id === stack.shown;
    tab.setAttribute("aria-selected", String(shown));
    // One stop per tab list for Tab; the arrows reach the others.
    tab.tabIndex = shown ? 0 : -1;
    tab.classList.toggle("dt-shown", shown);
    tab.classList.toggle("dt-tab-focused", pane.id === focus);
    this.#fillTab(tab, pane);
    return tab;
  }

  #fillTab(tab: HTMLElement, pane: Pane): void {
    if (tab.querySelector(".dt-tab-edit")) return;
    const label = this.#host.tabLabel(pane);
    const text = tabText(label);
    const marks = label.marks.join("");
    const [markEl, labelEl] = [tab.children[0], tab.children[1]];
    if (markEl.textContent !== marks) markEl.textContent = marks;
    if (labelEl.textContent !== text) labelEl.textContent = text;
    tab.title = label.marks.length > 0
      ? `${text} (${label.why.join(", ")})`
      : text;
  }
}

/**
 * Makes `items` the children of `parent`, in order, moving only what is
 * not in place (a moved element loses its scroll position and focus).
 */
export function placeChildren(parent: HTMLElement, items: HTMLElement[]): void {
  items.forEach((item, i) => {
    if (parent.children[i] !== item) {
      parent.insertBefore(item, parent.children[i] ?? null);
    }
  });
  while (parent.children.length > items.length) {
    parent.lastElementChild!.remove();
  }
}

/** The id of pane `pane`'s tab element. */
function tabId(pane: number): string {
  return `dt-tab-${pane}`;
}

/** The id of pane `pane`'s element (its tab's panel). */
function panelId(pane: number): string {
  return `dt-pane-${pane}`;
}

/**
 * Pane element `el` as its tab's panel (`tabpanel`, named by the tab);
 * while the window has one pane there is no tab bar, and no panel.
 */
function labelPanel(el: HTMLElement, pane: number, single: boolean): void {
  el.id = panelId(pane);
  if (single) {
    el.removeAttribute("role");
    el.removeAttribute("aria-labelledby");
  } else {
    el.setAttribute("role", "tabpanel");
    el.setAttribute("aria-labelledby", tabId(pane));
  }
}

/** Split `id` under `node`, if it is there. */
function findSplit(node: LayoutNode, id: number): Split | undefined {
  if (node.kind === "stack") return undefined;
  if (node.id === id) return node;
  for (const c of node.children) {
    const found = findSplit(c, id);
    if (found) return found;
  }
  return undefined;
}
