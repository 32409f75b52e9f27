/**
 * What programs are told (issue 32): the session's emulator answers colour
 * queries (OSC 10 / 11 / 12 / 4) with the colours of the window that most
 * recently had input or focus (its `colors` message), not the built-in
 * d0d0d0 on black; a read-only window's do not count; the colours stay
 * when the emulator moves to the emulator thread and back. Over a real
 * WebSocket: the hello's colours answer the very first query of the
 * program it starts; a `colors` message changes them. And the message's
 * validation (core/protocol.ts).
 */
import { assert, assertEquals } from "../assert.ts";
import { Session } from "../../server/session.ts";
import type { Viewer } from "../../server/viewer.ts";
import { SessionEmulator } from "../../server/session_emulator.ts";
import { startServer } from "../../server/http.ts";
import { TestClient } from "./ws_client.ts";
import { type ColorsMessage, parseClientMessage } from "../../core/protocol.ts";

const enc = new TextEncoder();

/** Resolves once `f()` holds, polling every 10 ms (fails after `ms`). */
async function until(f: () => boolean, what: string, ms = 10_000) {
  const end = performance.now() + ms;
  while (!f()) {
    if (performance.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const PALETTE = Array.from(
  { length: 16 },
  (_, i) => `#${(i * 16).toString(16).padStart(2, "0")}0000`,
);
const LIGHT: Omit<ColorsMessage, "type"> = {
  foreground: "#2f333b",
  background: "#fbfbfa",
  cursor: "#3b6fd6",
  palette: PALETTE,
};
const DARK: Omit<ColorsMessage, "type"> = {
  foreground: "#d5d9e0",
  background: "#1c1f26",
  cursor: "#f2c66d",
  palette: PALETTE,
};

Deno.test("protocol: a colors message is validated", () => {
  const good = { type: "colors", ...LIGHT, background: "#FBFBFA" };
  assertEquals(parseClientMessage(JSON.stringify(good)), {
    type: "colors",
    ...LIGHT,
  });
  for (
    const bad of [
      { ...good, background: "white" },
      { ...good, cursor: "#fff" },
      { ...good, foreground: undefined },
      { ...good, palette: PALETTE.slice(1) },
      { ...good, palette: [...PALETTE.slice(1), "rgb(1,2,3)"] },
    ]
  ) {
    assertEquals(typeof parseClientMessage(JSON.stringify(bad)), "string");
  } // The hello may carry them too.
  const hello = { type: "hello" as const, key: "k", cols: 80, rows: 24 };
  assertEquals(
    parseClientMessage(JSON.stringify({ ...hello, colors: LIGHT })),
    { ...hello, colors: LIGHT },
  );
  for (const colors of [{ ...LIGHT, cursor: 3 }, "#ffffff", null]) {
    const bad = parseClientMessage(JSON.stringify({ ...hello, colors }));
    assertEquals(typeof bad, "string");
  }
});

/** The program's script: ask the background and palette 1 for each line (the first at once). */
const ASK = [
  "ask() {",
  "  stty raw -echo",
  "  printf '\\033]11;?\\007'",
  "  IFS= read -r -d $'\\a' -t 5 bg",
  "  printf '\\033]4;1;?\\007'",
  "  IFS= read -r -d $'\\a' -t 5 c1",
  "  stty sane",
  '  echo "bg=${bg##*;} c1=${c1##*;}"',
  "}",
  "ask",
  "while IFS= read -r go; do ask; done",
].join("\n");

Deno.test("session colours over a WebSocket: the hello's colours answer the first query of the program it starts; a colors message changes them; a session without a window takes the last colours", async () => {
  const s = await startServer({
    command: "/bin/bash",
    args: ["--norc", "--noprofile", "-c", ASK],
    assets: {},
    log: () => {},
    shellIntegration: false,
  });
  const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
  const answers = () => c.text.match(/bg=\S+ c1=\S+/g) ?? [];
  try {
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24, colors: LIGHT });
    await c.until(() => answers().length === 1, "the first answer");
    assertEquals(answers()[0], "bg=rgb:fbfb/fbfb/fafa c1=rgb:1010/0000/0000");
    c.send({ type: "colors", ...DARK });
    c.input("go\r");
    await c.until(() => answers().length === 2, "the second answer");
    assertEquals(answers()[1], "bg=rgb:1c1c/1f1f/2626 c1=rgb:1010/0000/0000");
    // A bad one is reported and changes nothing.
    c.send({ type: "colors", ...LIGHT, background: "white" });
    await c.until(
      () => c.messages.some((m) => m.type === "error"),
      "the error",
    );
    c.input("go\r");
    await c.until(() => answers().length === 3, "the third answer");
    assertEquals(answers()[2], "bg=rgb:1c1c/1f1f/2626 c1=rgb:1010/0000/0000");
    // A session started without a window (domterm new) answers with the
    // colours a window said last.
    const alone = s.registry.create(["/bin/bash", "--norc", "-c", ASK]);
    const out = textViewer();
    alone.attach(out, 80, 24);
    await c.until(() => /bg=\S+ c1=\S+/.test(out.text), "its answer");
    assertEquals(
      out.text.match(/bg=\S+ c1=\S+/)![0],
      "bg=rgb:1c1c/1f1f/2626 c1=rgb:1010/0000/0000",
    );
  } finally {
    await c.close();
    await s.shutdown();
  }
});

/**
 * A session whose program asks `OSC 11 ?` (and `OSC 4 ; 1 ?`) for each
 * line of input and prints the answers as `bg=... c1=...`.
 */
function querySession(id: number): Session {
  const script = [
    "while IFS= read -r go; do",
    "  stty raw -echo",
    "  printf '\\033]11;?\\007'",
    "  IFS= read -r -d $'\\a' -t 5 bg",
    "  printf '\\033]4;1;?\\007'",
    "  IFS= read -r -d $'\\a' -t 5 c1",
    "  stty sane",
    '  echo "bg=${bg##*;} c1=${c1##*;}"',
    "done",
  ].join("\n");
  return Session.start({
    id,
    command: "/bin/bash",
    args: ["--norc", "--noprofile", "-c", script],
    cols: 80,
    rows: 24,
    shellIntegration: false,
  });
}

/** A viewer that keeps the output as text. */
function textViewer(readOnly = false): Viewer & { text: string } {
  const decoder = new TextDecoder();
  const v = {
    text: "",
    readOnly,
    output(data: Uint8Array) {
      v.text += decoder.decode(data, { stream: true });
    },
    snapshot() {},
    message() {},
    end() {},
  };
  return v;
}

Deno.test("session colours: colour queries answer the active window's colours, and follow it", async () => {
  const session = querySession(9101);
  try {
    const out = textViewer();
    const a = session.attach(out, 80, 24);
    const b = session.attach(textViewer(), 80, 24);
    const share = session.attach(textViewer(true), 80, 24);
    /** Type a line from `w` (it becomes the active window); the answers. */
    let asked = 0;
    const ask = async (w: typeof a) => {
      asked++;
      await session.input(enc.encode("go\n"), w);
      await until(
        () => (out.text.match(/bg=\S+ c1=\S+/g) ?? []).length >= asked,
        `answer ${asked}: ${JSON.stringify(out.text)}`,
      );
      return out.text.match(/bg=\S+ c1=\S+/g)![asked - 1];
    };
    // No window said: the built-in defaults.
    assertEquals(await ask(a), "bg=rgb:0000/0000/0000 c1=rgb:cdcd/0000/0000");
    session.setColors(a, LIGHT);
    session.setColors(b, DARK);
    assertEquals(await ask(a), "bg=rgb:fbfb/fbfb/fafa c1=rgb:1010/0000/0000");
    // Window b types: its colours.
    assertEquals(await ask(b), "bg=rgb:1c1c/1f1f/2626 c1=rgb:1010/0000/0000");
    // b changes its theme (the desktop went light): the answer follows.
    session.setColors(b, { ...LIGHT, background: "#ffffff" });
    assertEquals(await ask(b), "bg=rgb:ffff/ffff/ffff c1=rgb:1010/0000/0000");
    // Focus alone makes a the active window again.
    session.focus(a);
    assertEquals(await ask(a), "bg=rgb:fbfb/fbfb/fafa c1=rgb:1010/0000/0000");
    // A read-only window's colours are ignored, even when it is focused.
    session.setColors(share, DARK);
    session.focus(share);
    session.setColors(share, DARK);
    assertEquals(await ask(a), "bg=rgb:fbfb/fbfb/fafa c1=rgb:1010/0000/0000");
    // The active window leaves: the one that takes over answers.
    session.focus(b);
    session.detach(b);
    assert(session.windows.has(a));
    await session.input(enc.encode("go\n"));
    asked++;
    await until(
      () => (out.text.match(/bg=\S+ c1=\S+/g) ?? []).length >= asked,
      "answer after the detach",
    );
    // The last attached window (the read-only share) took over the size,
    // but it has no colours of its own: b's stay.
    assertEquals(
      out.text.match(/bg=\S+ c1=\S+/g)![asked - 1],
      "bg=rgb:ffff/ffff/ffff c1=rgb:1010/0000/0000",
    );
  } finally {
    await session.close();
  }
});

Deno.test("session colours: the default colours stay when the emulator moves to the thread and back", async () => {
  const replies: string[] = [];
  const emu = new SessionEmulator(
    9102,
    80,
    24,
    300,
    (d) => replies.push(d),
    undefined,
    { floodBytes: 32 * 1024, floodWindowMs: 1000, quietMs: 150 },
  );
  const query = enc.encode("\x1b]11;?\x07\x1b]10;?\x07");
  const answered = async (n: number) =>
    await until(() => replies.length >= n, `${n} replies`);
  try {
    emu.setDefaultColors(LIGHT);
    emu.write(query);
    await answered(2);
    const line = enc.encode("x".repeat(100) + "\r\n");
    for (let i = 0; i < 400; i++) emu.write(line);
    // Changed while it moves: after the move, in order.
    emu.setDefaultColors({ background: "#102030" });
    emu.write(query);
    await until(() => emu.place === "thread", "moved to the thread");
    await answered(4);
    emu.write(query);
    await answered(6);
    emu.setDefaultColors({ foreground: "#405060" });
    emu.write(query);
    await answered(8);
    await until(() => emu.place === "main", "moved back");
    await emu.settled();
    emu.write(query);
    await answered(10);
    assertEquals(emu.moves, 2);
    const light =
      "\x1b]11;rgb:fbfb/fbfb/fafa\x07\x1b]10;rgb:2f2f/3333/3b3b\x07";
    const moved =
      "\x1b]11;rgb:1010/2020/3030\x07\x1b]10;rgb:2f2f/3333/3b3b\x07";
    const fg = "\x1b]11;rgb:1010/2020/3030\x07\x1b]10;rgb:4040/5050/6060\x07";
    assertEquals(replies.join(""), light + moved + moved + fg + fg);
  } finally {
    emu.close();
  }
});
