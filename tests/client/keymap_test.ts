/**
 * client/keymap.ts: which action a key event runs, from the key table's
 * defaults and the settings' `[keys]` (events are plain objects here).
 *
 * @module
 */
import { assertEquals } from "../assert.ts";
import { eventKeys, Keymap } from "../../client/keymap.ts";
import { Actions } from "../../client/actions.ts";

/** A key event with `mods` ("cs": Ctrl+Shift, "m": Meta, "a": Alt). */
function key(mods: string, k: string, code: string): KeyboardEvent {
  return {
    key: k,
    code,
    ctrlKey: mods.includes("c"),
    shiftKey: mods.includes("s"),
    altKey: mods.includes("a"),
    metaKey: mods.includes("m"),
  } as KeyboardEvent;
}

function keymap(bindings: Record<string, string> = {}): Keymap {
  return new Keymap({
    actions: new Actions(),
    bindings: () => bindings,
    accepts: () => true,
    warn: () => {},
  });
}

Deno.test("keymap: the default bindings, by physical key or by character", () => {
  const k = keymap();
  const cases: [KeyboardEvent, string | null][] = [
    [key("cs", "F", "KeyF"), "find"],
    [key("cs", "\x06", "KeyF"), "find"],
    [key("cs", "D", "KeyD"), "detach"],
    [key("cs", "L", "KeyL"), "input-mode"],
    [key("cs", "M", "KeyM"), "pause-output"],
    [key("cs", "S", "KeyS"), "save-html"],
    [key("cs", "C", "KeyC"), "copy"],
    [key("cs", "V", "KeyV"), "paste"],
    // US layout: Shift makes = a +, - an _, 0 a ).
    [key("cs", "+", "Equal"), "zoom-in"],
    [key("cs", "_", "Minus"), "zoom-out"],
    [key("cs", ")", "Digit0"), "zoom-reset"],
    [key("cs", "+", "NumpadAdd"), "zoom-in"],
    [key("cs", "-", "NumpadSubtract"), "zoom-out"],
    [key("cs", "0", "Numpad0"), "zoom-reset"],
    // Another layout's character on the = key.
    [key("cs", "`", "Equal"), "zoom-in"],
    [key("m", "=", "Equal"), "zoom-in"],
    [key("ms", "+", "Equal"), "zoom-in"],
    [key("m", "0", "Digit0"), "zoom-reset"],
    // The program's: plain Ctrl, Ctrl+Alt+Shift, Ctrl+Meta.
    [key("c", "=", "Equal"), null],
    [key("c", "f", "KeyF"), null],
    [key("csa", "F", "KeyF"), null],
    [key("cm", "=", "Equal"), null],
    [key("cm", "T", "KeyT"), null],
    // Tabs and panes (issue 33).
    [key("cs", "T", "KeyT"), "new-tab"],
    [key("cs", "N", "KeyN"), "new-pane"],
    [key("cs", "W", "KeyW"), "close-pane"],
  ];
  for (const [e, want] of cases) {
    assertEquals(k.actionOf(e), want, `${eventKeys(e)}`);
  }
  assertEquals(k.keyOf("zoom-in"), "Ctrl+Shift+=");
  assertEquals(k.keyOf("find"), "Ctrl+Shift+F");
  assertEquals(k.keyOf("new-window"), undefined);
});

Deno.test("keymap: the settings' bindings come over the defaults, and the menu shows them", () => {
  const k = keymap({ "Ctrl+Shift+F": "new-window", "Ctrl+Shift+T": "find" });
  assertEquals(k.actionOf(key("cs", "F", "KeyF")), "new-window");
  assertEquals(k.actionOf(key("cs", "T", "KeyT")), "find");
  assertEquals(k.keyOf("find"), "Ctrl+Shift+T");
  assertEquals(k.keyOf("new-window"), "Ctrl+Shift+F");
  assertEquals(k.actionOf(key("cs", "D", "KeyD")), "detach");
});
