/**
 * The window's menu: the registered actions (client/actions.ts), grouped,
 * with their keys, as a popup. It opens from the context menu (a right
 * click; with Shift while the program tracks the mouse), from the menu
 * button, and from the keyboard (the ContextMenu key or Shift+F10, as in
 * GNOME Terminal). It follows the WAI-ARIA menu pattern: arrows, Home/End
 * and the first letter move, Enter or Space runs, Escape or Tab closes and
 * gives the focus back.
 *
 * The button sits in the strip right of the last column (the scrollbar's
 * gutter and the part of a cell that does not fit), so it never covers a
 * character, a fold button or a cell a program may want clicked.
 *
 * @module
 */
import type { Action, Actions } from "./actions.ts";

/** What the menu needs from the page. */
export interface MenuOptions {
  /** The program tracks the mouse: a right click is the program's. */
  mouseTracked: () => boolean;
  /** Give the keyboard back to the terminal. */
  focusTerminal: () => void;
  /** Pixels between the grid's last column and the window's right edge. */
  gapRight: () => number;
  /** The key an action's entry shows (client/keymap.ts), if any. */
  keyOf?: (action: string) => string | undefined;
}

/** The narrowest the menu button gets (a gutter can be thinner, or none). */
const BUTTON_MIN_WIDTH = 10;

/** The popup menu and the menu button of one window. */
export class Menu {
  #root: HTMLElement;
  /** The terminal elements the menu opens from. */
  #roots: HTMLElement[] = [];
  #actions: Actions;
  #options: MenuOptions;
  #button: HTMLButtonElement;
  #popup: HTMLElement | null = null;

  /** Adds the menu button to `root` and listens for the ways to open the menu. */
  constructor(root: HTMLElement, actions: Actions, options: MenuOptions) {
    this.#root = root;
    this.#actions = actions;
    this.#options = options;
    const doc = root.ownerDocument;
    const b = doc.createElement("button");
    b.className = "dt-menu-button";
    b.type = "button";
    b.title = "Menu (Shift+F10)";
    b.setAttribute("aria-label", "Menu");
    b.setAttribute("aria-haspopup", "menu");
    b.setAttribute("aria-expanded", "false");
    b.textContent = "\u22ee"; // a vertical ellipsis fits the narrow strip
    // Keep the terminal's focus (and the selection) while clicking.
    b.addEventListener("mousedown", (e) => e.preventDefault());
    b.addEventListener("click", () => {
      if (this.isOpen) this.close();
      else {
        const r = b.getBoundingClientRect();
        this.open(r.right, r.bottom + 2, { alignRight: true });
      }
    });
    // Outside the terminal element: not part of its text, its selection or
    // its key handling.
    doc.body.append(b);
    this.#button = b;
    this.placeButton();
    new ResizeObserver(() => this.placeButton()).observe(root);
    this.attach(root);
  }

  /**
   * Opens the menu from `root` too (a right click): another terminal of
   * the page. The button stays beside the first.
   */
  attach(root: HTMLElement): void {
    this.#roots.push(root);
    root.addEventListener("contextmenu", this.#onContextMenu);
  }

  /**
   * The menu key's action (Shift+F10, the ContextMenu key: the key
   * table's `menu`): opens the menu under its button, or closes it.
   */
  toggle(): void {
    if (this.isOpen) {
      this.close();
      return;
    }
    const r = this.#button.getBoundingClientRect();
    this.open(r.right, r.bottom + 2, { alignRight: true });
  }

  /** Fits the button to the strip right of the grid (after a resize or refit). */
  placeButton(): void {
    // Left of the viewport's scrollbar when the strip has room for it there;
    // else over the scrollbar, below its up arrow (never over the grid).
    const vp = this.#root.querySelector<HTMLElement>(".dt-viewport");
    const bar = vp ? Math.max(0, vp.offsetWidth - vp.clientWidth) : 0;
    const gap = Math.floor(this.#options.gapRight());
    const beside = gap - bar >= BUTTON_MIN_WIDTH;
    const b = this.#button.style;
    b.right = beside ? `${bar}px` : "0px";
    b.top = beside ? "" : `${3 + bar}px`;
    b.width = `${Math.max(BUTTON_MIN_WIDTH, beside ? gap - bar : gap)}px`;
  }

  /** True while the popup is shown. */
  get isOpen(): boolean {
    return this.#popup !== null;
  }

  /**
   * Shows the popup at (x, y) in viewport pixels (its right edge there with
   * `alignRight`), kept inside the window, focus on the first entry.
   */
  open(x: number, y: number, opts: { alignRight?: boolean } = {}): void {
    this.close(false);
    const doc = this.#root.ownerDocument;
    const menu = doc.createElement("div");
    menu.className = "dt-menu";
    menu.setAttribute("role", "menu");
    menu.setAttribute("aria-label", "domterm");
    let group: string | undefined;
    let first = true;
    for (const a of this.#actions.list()) {
      if (a.inMenu === false) continue;
      if (!first && a.group !== group) {
        const sep = doc.createElement("div");
        sep.className = "dt-menu-separator";
        sep.setAttribute("role", "separator");
        menu.append(sep);
      }
      first = false;
      group = a.group;
      menu.append(this.#item(a));
    }
    menu.addEventListener("keydown", this.#onMenuKey);
    menu.addEventListener("mousedown", (e) => e.preventDefault());
    doc.body.append(menu);
    this.#popup = menu;
    this.#button.setAttribute("aria-expanded", "true");
    // Placed once its size is known, inside the window.
    const w = menu.offsetWidth;
    const h = menu.offsetHeight;
    const view = doc.documentElement;
    const left = opts.alignRight ? x - w : x;
    const maxX = view.clientWidth - w - 4;
    const maxY = view.clientHeight - h - 4;
    menu.style.left = `${Math.max(4, Math.min(left, maxX))}px`;
    menu.style.top = `${Math.max(4, Math.min(y, maxY))}px`;
    doc.addEventListener("mousedown", this.#onOutside, { capture: true });
    doc.defaultView?.addEventListener("blur", this.#onBlur);
    this.#items()[0]?.focus();
  }

  /** Hides the popup; the terminal gets the keyboard back unless `refocus` is false. */
  close(refocus = true): void {
    const menu = this.#popup;
    if (!menu) return;
    this.#popup = null;
    menu.remove();
    this.#button.setAttribute("aria-expanded", "false");
    const doc = this.#root.ownerDocument;
    doc.removeEventListener("mousedown", this.#onOutside, { capture: true });
    doc.defaultView?.removeEventListener("blur", this.#onBlur);
    if (refocus) this.#options.focusTerminal();
  }

  #item(a: Action): HTMLElement {
    const doc = this.#root.ownerDocument;
    const el = doc.createElement("div");
    el.className = "dt-menu-item";
    el.dataset.action = a.name;
    el.tabIndex = -1;
    const checked = a.checked?.();
    el.setAttribute(
      "role",
      checked === undefined ? "menuitem" : "menuitemcheckbox",
    );
    if (checked !== undefined) el.setAttribute("aria-checked", `${checked}`);
    const enabled = a.enabled?.() ?? true;
    if (!enabled) el.setAttribute("aria-disabled", "true");
    const label = doc.createElement("span");
    label.className = "dt-menu-label";
    label.textContent = a.label;
    el.append(label);
    const shortcut = this.#options.keyOf?.(a.name);
    if (shortcut) {
      const key = doc.createElement("span");
      key.className = "dt-menu-key";
      key.textContent = shortcut;
      el.append(key);
      el.setAttribute(
        "aria-keyshortcuts",
        shortcut.replaceAll("Ctrl", "Control"),
      );
    }
    el.addEventListener("click", () => this.#run(a));
    el.addEventListener("mousemove", () => {
      if (el.ownerDocument.activeElement !== el) el.focus();
    });
    return el;
  }

  #run(a: Action): void {
    if (a.enabled && !a.enabled()) return;
    // Run first, then refocus: focusing the terminal's textarea first would
    // drop the selection Copy is about to copy.
    this.close(false);
    this.#actions.run(a.name);
    // Unless the action put the keyboard elsewhere (the find bar).
    const active = this.#root.ownerDocument.activeElement;
    if (
      active === null || active === this.#root.ownerDocument.body ||
      this.#roots.some((r) => r.contains(active))
    ) this.#options.focusTerminal();
  }

  #items(): HTMLElement[] {
    return this.#popup
      ? [...this.#popup.querySelectorAll<HTMLElement>(".dt-menu-item")]
      : [];
  }

  #onMenuKey = (e: KeyboardEvent): void => {
    const items = this.#items();
    const at = items.indexOf(e.target as HTMLElement);
    const move = (i: number) => {
      items[(i + items.length) % items.length]?.focus();
    };
    let handled = true;
    switch (e.key) {
      case "ArrowDown":
        move(at + 1);
        break;
      case "ArrowUp":
        move(at < 0 ? -1 : at - 1);
        break;
      case "Home":
        move(0);
        break;
      case "End":
        move(-1);
        break;
      case "Enter":
      case " ": {
        const name = items[at]?.dataset.action;
        const a = name ? this.#actions.get(name) : undefined;
        if (a) this.#run(a);
        break;
      }
      case "Escape":
      case "Tab":
        this.close();
        break;
      default:
        // The first letter moves to the next entry that starts with it.
        if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
          const k = e.key.toLowerCase();
          for (let n = 1; n <= items.length; n++) {
            const i = (at + n) % items.length;
            if (items[i].textContent?.toLowerCase().startsWith(k)) {
              move(i);
              break;
            }
          }
        } else handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  #onContextMenu = (e: MouseEvent): void => {
    // Ctrl held: the browser's menu. The program tracks the mouse: its
    // click, unless Shift is held (as for selecting).
    if (e.defaultPrevented || e.ctrlKey) return;
    if (this.#options.mouseTracked() && !e.shiftKey) return;
    if (e.target instanceof Element && e.target.closest(".dt-menu")) return;
    e.preventDefault();
    this.open(e.clientX, e.clientY);
  };

  #onOutside = (e: MouseEvent): void => {
    if (this.#popup?.contains(e.target as Node)) return;
    if (this.#button.contains(e.target as Node)) return;
    this.close(false);
  };

  #onBlur = (): void => this.close(false);
}
