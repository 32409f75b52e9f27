/**
 * The window channel's messages as the page sends and reads them. Until
 * core/protocol.ts has them (the tabs-server branch), they are declared
 * here; then this module re-exports those.
 *
 * @module
 */
import type { Drop, Layout, Side } from "../../core/layout.ts";

/** The window channel's path. */
export const WINDOW_PATH = "/window";

/** A layout operation the page asks the server for. */
export type LayoutOp =
  | { op: "tab"; beside: number; session: number | null }
  | { op: "split"; beside: number; side: Side; session: number | null }
  | { op: "move"; pane: number; drop: Drop }
  | { op: "close"; pane: number }
  | { op: "focus"; pane: number }
  | { op: "rename"; pane: number; title: string | null }
  | { op: "resize"; split: number; sizes: number[] }
  | { op: "to-new-window"; pane: number }
  | { op: "to-window"; pane: number; window: number };

/** Page -> server. */
export type WindowClientMessage =
  | {
    type: "window-hello";
    key: string;
    window: number | null;
    session: number | null;
    cols: number;
    rows: number;
  }
  | { type: "layout-op"; op: LayoutOp };

/** Server -> page. */
export type WindowServerMessage =
  | { type: "layout"; window: number; layout: Layout }
  | { type: "open-window"; window: number }
  | { type: "window-error"; message: string }
  | { type: "window-closed" };
