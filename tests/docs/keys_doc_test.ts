/**
 * The window's key table (client/key_table.ts) against the docs: the table
 * in docs/keyboard-mouse.md is generated from it and must be current; every
 * action it binds is one the window registers; docs/settings.md names every
 * action a `[keys]` binding may use.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import { BEGIN, END } from "../../scripts/gen_keys_doc.ts";
import {
  KEY_BINDINGS,
  keyBindingsDoc,
  keyMap,
} from "../../client/key_table.ts";
import { Actions } from "../../client/actions.ts";
import { registerActions } from "../../client/window_actions.ts";
import { registerPaneActions } from "../../client/layout/pane_actions.ts";
import type { Pager } from "../../client/pager.ts";

/** A Markdown table without its column padding. */
function squeeze(table: string): string {
  return table.trim().split("\n").map((l) =>
    l.split("|").map((c) => c.trim().replace(/^-+$/, "-")).join("|")
  ).join("\n");
}

/** The names of the actions the window registers. */
function registeredActions(): string[] {
  const actions = new Actions();
  const none = () => {};
  registerActions(actions, {
    root: {} as HTMLElement,
    copy: none,
    copyKey: () => true,
    copyHtml: none,
    paste: none,
    pasteKey: () => true,
    selectAll: none,
    find: none,
    clearHistory: none,
    pager: {} as Pager,
    saveHtml: () => Promise.resolve(),
    zoom: none,
    newWindow: none,
    detach: none,
    close: none,
    inputMode: () => "auto",
    setInputMode: none,
    settings: none,
    jumpToPrompt: none,
    copyOutput: none,
    readOutput: none,
    tabFocus: () => false,
    setTabFocus: none,
    menu: none,
    scroll: () => true,
    panes: (a) =>
      registerPaneActions(a, {
        layout: () => null,
        op: none,
        newPaneSide: () => "right",
        close: none,
        rename: none,
        prefix: none,
        origin: () => null,
      }),
  });
  return actions.list().map((a) => a.name);
}

Deno.test("docs/keyboard-mouse.md: the table of default keys is current (run `deno run -A scripts/gen_keys_doc.ts`)", async () => {
  const doc = await Deno.readTextFile(
    new URL("../../docs/keyboard-mouse.md", import.meta.url),
  );
  const a = doc.indexOf(BEGIN), b = doc.indexOf(END);
  assert(a >= 0 && b > a, "the markers are there");
  assertEquals(
    squeeze(doc.slice(a + BEGIN.length, b)),
    squeeze(keyBindingsDoc()),
    "docs/keyboard-mouse.md is stale: run `deno run -A scripts/gen_keys_doc.ts`",
  );
});

Deno.test("key table: every bound action is registered, no key is bound twice", () => {
  const names = new Set(registeredActions());
  const seen = new Map<string, string>();
  for (const b of KEY_BINDINGS) {
    assert(names.has(b.action), `${b.action} is not an action`);
    for (const k of b.keys) {
      assert(!seen.has(k), `${k} is bound to ${seen.get(k)} and ${b.action}`);
      seen.set(k, b.action);
    }
  }
  // The settings' bindings win over the defaults.
  const map = keyMap({ "ctrl+shift+f": "new-window", "Ctrl+Shift+T": "close" });
  assertEquals(map.get("Ctrl+Shift+F"), "new-window");
  assertEquals(map.get("Ctrl+Shift+T"), "close");
  assertEquals(map.get("Ctrl+Shift+D"), "detach");
  assertEquals(map.get("Ctrl+Shift++"), "zoom-in");
  assertEquals(map.get("Meta+0"), "zoom-reset");
});

Deno.test("docs/settings.md names every action a key binding may use", async () => {
  const doc = await Deno.readTextFile(
    new URL("../../docs/settings.md", import.meta.url),
  );
  const section = doc.slice(doc.indexOf("## Key bindings"));
  const list = section.slice(0, section.indexOf("\n## "));
  for (const name of registeredActions()) {
    assert(list.includes(`\`${name}\``), `docs/settings.md lacks ${name}`);
  }
});
