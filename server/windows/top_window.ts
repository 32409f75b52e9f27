/**
 * A top-level window as the server keeps it: its number, an optional name,
 * its layout (core/layout.ts: splits of stacks of panes, each pane showing
 * a session) and the pages that show it now. The layout outlives its
 * pages: a window whose page is gone (a reload, a crash, `kill -9` of the
 * browser) stays while it has sessions, and `domterm attach` brings it
 * back.
 *
 * @module
 */
import type { Layout } from "../../core/layout.ts";
import type { WindowServerMessage } from "../../core/protocol.ts";

/** A page showing a window (its window channel, server/windows/channel.ts). */
export interface WindowPage {
  /** Send `msg` to the page. */
  send(msg: WindowServerMessage): void;
  /** The window's last pane is gone: tell the page (`window-closed`) and let go. */
  closed(): void;
  /**
   * Have the page open a new OS window on `target` (a page on this
   * machine only; see server/windows/channel.ts): whether it did.
   */
  openPage?(target: PageTarget): Promise<boolean>;
}

/** What a window opened by a page shows: a kept window, or a new one on a session. */
export interface PageTarget {
  window: number | null;
  session: number | null;
}

/** One top-level window. */
export class TopWindow {
  readonly id: number;
  /** The name a specifier may use (`--window NAME`), or null. */
  name: string | null = null;
  #layout: Layout;
  /** The pages showing it. */
  readonly pages = new Set<WindowPage>();
  /** When its last page left (ms since the epoch), or null while shown. */
  detachedSince: number | null = Date.now();

  constructor(id: number, layout: Layout) {
    this.id = id;
    this.#layout = layout;
  }

  get layout(): Layout {
    return this.#layout;
  }

  /** The layout becomes `layout`; every page is told. */
  setLayout(layout: Layout): void {
    this.#layout = layout;
    this.broadcast(this.layoutMessage());
  }

  /** The `layout` message that describes the window now. */
  layoutMessage(): WindowServerMessage {
    return { type: "layout", window: this.id, layout: this.#layout };
  }

  /** Send `msg` to every page. */
  broadcast(msg: WindowServerMessage): void {
    for (const p of this.pages) p.send(msg);
  }

  /** `page` shows the window now. */
  addPage(page: WindowPage): void {
    this.pages.add(page);
    this.detachedSince = null;
  }

  /** `page` no longer shows it. */
  removePage(page: WindowPage): void {
    if (this.pages.delete(page) && this.pages.size === 0) {
      this.detachedSince = Date.now();
    }
  }
}
