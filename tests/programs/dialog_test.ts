/**
 * dialog and whiptail menus through a real PTY: the box (line drawing), the
 * highlighted item following the arrow keys, and the choice they return.
 * The menu screens were checked against tmux.
 */
import assert from "node:assert/strict";
import { type ProgramSession, withProgram } from "./harness.ts";

const ITEMS = ["a", "Apple", "b", "Banana", "c", "Cherry", "d", "Date"];

const DIALOG_MENU = `




                   ┌──────────────────────────────────────┐
                   │ Pick a fruit                         │
                   │ ┌──────────────────────────────────┐ │
                   │ │            a  Apple              │ │
                   │ │            b  Banana             │ │
                   │ │            c  Cherry             │ │
                   │ │            d  Date               │ │
                   │ │                                  │ │
                   │ └──────────────────────────────────┘ │
                   ├──────────────────────────────────────┤
                   │       <  OK  >    <Cancel>           │
                   └──────────────────────────────────────┘`;

const WHIPTAIL_MENU = `





                    ┌──────────────────────────────────────┐
                    │ Pick a fruit                         │
                    │                                      │
                    │               a Apple                │
                    │               b Banana               │
                    │               c Cherry               │
                    │               d Date                 │
                    │                                      │
                    │                                      │
                    │       <Ok>           <Cancel>        │
                    │                                      │
                    └──────────────────────────────────────┘`;

/** Style of the cell where `text` starts on row y (bg and attributes). */
function styleAt(s: ProgramSession, text: string, y: number): string {
  const x = s.find(text, y);
  assert.ok(x >= 0, `${text} on row ${y}`);
  return `${s.bg(x, y)}/${s.attr(x, y)}`;
}

/**
 * The item rows `rows` (tag text per row): exactly the one at `selected`
 * is styled differently from the others.
 */
function highlighted(
  s: ProgramSession,
  rows: [string, number][],
  selected: number,
): boolean {
  const styles = rows.map(([text, y]) => styleAt(s, text, y));
  const others = styles.filter((_, i) => i !== selected);
  return others.every((st) => st === others[0]) &&
    styles[selected] !== others[0];
}

Deno.test("dialog --menu: box, arrow keys, choice", async () => {
  await withProgram({
    command: "bash",
    args: [
      "-c",
      `choice=$(dialog --stdout --menu 'Pick a fruit' 12 40 4 ${
        ITEMS.join(" ")
      }); clear; echo "choice=$choice"; sleep 30`,
    ],
  }, async (s) => {
    await s.waitForText(DIALOG_MENU, { what: "the menu" });
    const rows: [string, number][] = [["Apple", 8], ["Banana", 9], [
      "Cherry",
      10,
    ], ["Date", 11]];
    assert.ok(highlighted(s, rows, 0), "Apple is highlighted first");
    await s.key("ArrowDown", {}, 2);
    await s.waitForScreen(
      (s) => highlighted(s, rows, 2),
      undefined,
      "Cherry highlighted",
    );
    assert.equal(s.text(), DIALOG_MENU, "the text did not change");
    await s.key("Enter");
    await s.waitForScreen(/^choice=c$/m, undefined, "the choice");
  });
});

Deno.test("whiptail --menu: box, arrow keys, choice", async () => {
  await withProgram({
    command: "bash",
    args: [
      "-c",
      `choice=$(whiptail --menu 'Pick a fruit' 12 40 4 ${
        ITEMS.join(" ")
      } 3>&1 1>&2 2>&3); clear; echo "choice=$choice"; sleep 30`,
    ],
  }, async (s) => {
    await s.waitForText(WHIPTAIL_MENU, { what: "the menu" });
    const rows: [string, number][] = [["Apple", 9], ["Banana", 10], [
      "Cherry",
      11,
    ], ["Date", 12]];
    assert.ok(highlighted(s, rows, 0), "Apple is highlighted first");
    await s.key("ArrowDown");
    await s.waitForScreen(
      (s) => highlighted(s, rows, 1),
      undefined,
      "Banana highlighted",
    );
    await s.key("Enter");
    await s.waitForScreen(/^choice=b$/m, undefined, "the choice");
  });
});
