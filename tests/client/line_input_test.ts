/**
 * The window's side of the automatic-mode ordering protocol
 * (client/line_input.ts), driven message by message: keys handed back by
 * the server are edited in the order typed, keys typed meanwhile wait, keys
 * handed back after their line ended are sent again, and nothing is sent
 * twice. (The server's side: tests/server/line_input_test.ts; both over a
 * real PTY: tests/e2e/line_editor_test.ts.)
 */
import { assertEquals } from "../assert.ts";
import { LineInput } from "../../client/line_input.ts";
import type { ClientMessage, EditMessage } from "../../core/protocol.ts";
import { DEFAULT_CONTROL_CHARS } from "../../core/line_editor/editor.ts";

/** What the window sent, in order: bytes as "B:...", messages as their JSON minus edit-state. */
function setup() {
  const out: string[] = [];
  const li = new LineInput({
    sendBytes: (d) => out.push(`B:${d}`),
    sendMessage: (m: ClientMessage) => {
      if (m.type === "key") out.push(`K${m.seq}:${m.data}`);
      else if (m.type === "line") {
        out.push(`L:${m.history ?? ""}${m.echo ? `|${m.echo}` : ""}`);
      }
    },
    changed: () => {},
  });
  return { li, out };
}

function edit(seq: number, data: string, echo = true): EditMessage {
  return {
    type: "edit",
    seq,
    data,
    echo,
    cc: DEFAULT_CONTROL_CHARS,
    historyKey: "cat",
  };
}

Deno.test("line input: keys handed back are edited in order; keys typed meanwhile wait behind them", () => {
  const { li, out } = setup();
  li.input("a");
  li.input("b");
  li.input("c");
  assertEquals(out, ["K1:a", "K2:b", "K3:c"]);
  li.onEdit(edit(1, "a"));
  assertEquals(li.editing, true);
  li.input("d"); // typed now: must come after b and c
  assertEquals(li.editor.text, "a");
  li.onEdit(edit(2, "b"));
  li.onEdit(edit(3, "c"));
  assertEquals(li.editor.text, "abcd");
  li.input("\r");
  assertEquals(out.slice(3), ["L:abcd", "B:abcd\r"]);
  assertEquals(li.editing, false);
  li.input("e");
  assertEquals(out.slice(5), ["K4:e"], "the next key is checked again");
});

Deno.test("line input: keys handed back after their line ended go out again, before later keys", () => {
  const { li, out } = setup();
  for (const k of ["h", "\r", "x", "y"]) li.input(k);
  li.onEdit(edit(1, "h"));
  li.onEdit(edit(2, "\r"));
  assertEquals(out.slice(4), ["L:h", "B:h\r"]);
  li.input("z"); // waits: x and y are still coming back
  li.onEdit(edit(3, "x"));
  li.onEdit(edit(4, "y"));
  assertEquals(out.slice(6), ["K5:x", "K6:y", "K7:z"]);
});

Deno.test("line input: the terminal went raw: what was typed goes out without Enter", () => {
  const { li, out } = setup();
  li.input("a");
  li.onEdit(edit(1, "a"));
  li.input("b");
  li.onRaw();
  assertEquals(out.slice(1), ["L:", "B:ab"]);
  assertEquals(li.editing, false);
});

Deno.test("line input: character mode, focus reports, masked input, pipe mode", () => {
  const { li, out } = setup();
  li.input("\x1b[I");
  li.setMode("char");
  li.input("q");
  assertEquals(out, ["B:\x1b[I", "B:q"]);
  li.setMode("auto");
  li.input("s");
  li.onEdit(edit(1, "s", false));
  assertEquals(li.masked, true);
  li.input("ecret\r");
  assertEquals(out.slice(2), ["K1:s", "L:", "B:secret\r"], "no history");
  li.setMode("pipe");
  li.input("p");
  li.onEdit(edit(2, "p"));
  li.input("\r");
  assertEquals(out.slice(5), ["K2:p", "L:p|p\r\n", "B:p\r"]);
});
