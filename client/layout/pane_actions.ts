/**
 * The window's tab and pane commands (client/actions.ts), for the menu and
 * the key table: new tab, new pane, split on a side, move between panes,
 * next and previous tab, close, rename, a pane to a new window and back
 * to the window it came from, and the
 * pane prefix (Ctrl+Shift+A: the next key is one of the pane keys). Each
 * asks the server (a layout operation) about the focused pane.
 *
 * @module
 */
import {
  findPane,
  type Layout,
  neighbour,
  type Side,
  SIDES,
} from "../../core/layout.ts";
import type { Actions } from "../actions.ts";
import type { LayoutOp } from "../../core/protocol.ts";

/** What the commands act through. */
export interface PaneActionsHost {
  /** The window's layout (null before the first). */
  layout(): Layout | null;
  /** Ask the server for an operation. */
  op(op: LayoutOp): void;
  /** The side a new pane goes to beside pane `id` (its longer side). */
  newPaneSide(id: number): Side;
  /** Close pane `id`, asking first when a program other than the shell runs. */
  close(id: number): void;
  /** Let the user rename pane `id`'s tab. */
  rename(id: number): void;
  /** The next key is a pane key (the key table's `prefix: "pane"` rows). */
  prefix(): void;
  /**
   * The window this one's panes came from (it was opened by Move to a new
   * window), or null.
   */
  origin(): number | null;
}

const SIDE_LABEL: Record<Side, string> = {
  left: "left",
  right: "right",
  above: "up",
  below: "down",
};

/** Registers the tab and pane commands, in menu order. */
export function registerPaneActions(
  actions: Actions,
  host: PaneActionsHost,
): void {
  const focus = () => host.layout()?.focus ?? null;
  const on = (f: (pane: number) => void) => () => {
    const p = focus();
    if (p !== null) f(p);
  };
  const add = (
    name: string,
    label: string,
    run: () => void,
    inMenu = true,
  ) => actions.register({ name, label, group: "panes", inMenu, run });
  add(
    "new-tab",
    "New tab",
    on((p) => host.op({ op: "tab", beside: p, session: null })),
  );
  add(
    "new-pane",
    "New pane",
    on((p) =>
      host.op({
        op: "split",
        beside: p,
        side: host.newPaneSide(p),
        session: null,
      })
    ),
  );
  for (const side of SIDES) {
    add(
      `split-${SIDE_LABEL[side]}`,
      `New pane ${side}`,
      on((p) => host.op({ op: "split", beside: p, side, session: null })),
      false,
    );
  }
  for (const side of SIDES) {
    add(
      `focus-${SIDE_LABEL[side]}`,
      `Pane ${SIDE_LABEL[side]}`,
      on((p) => {
        const layout = host.layout();
        const to = layout && neighbour(layout, p, side);
        if (to !== null && to !== undefined) host.op({ op: "focus", pane: to });
      }),
      false,
    );
  }
  for (
    const [name, label, step] of [
      ["next-tab", "Next tab", 1],
      ["previous-tab", "Previous tab", -1],
    ] as const
  ) {
    add(
      name,
      label,
      on((p) => {
        const layout = host.layout();
        const found = layout && findPane(layout, p);
        if (!found) return;
        const tabs = found.stack.panes;
        const i = tabs.indexOf(found.pane);
        const to = tabs[(i + step + tabs.length) % tabs.length];
        if (to.id !== p) host.op({ op: "focus", pane: to.id });
      }),
      false,
    );
  }
  add("rename-tab", "Rename tab\u2026", on((p) => host.rename(p)));
  add(
    "pane-to-new-window",
    "Move to a new window",
    on((p) => host.op({ op: "to-new-window", pane: p })),
  );
  actions.register({
    name: "pane-back",
    label: "Move back to its window",
    group: "panes",
    // In the menu of a window that Move to a new window opened only.
    get inMenu() {
      return host.origin() !== null;
    },
    enabled: () => host.origin() !== null,
    run: on((p) => {
      const to = host.origin();
      if (to !== null) host.op({ op: "to-window", pane: p, window: to });
    }),
  });
  add("close-pane", "Close pane", on((p) => host.close(p)));
  add("pane-prefix", "Pane keys", () => host.prefix(), false);
}
