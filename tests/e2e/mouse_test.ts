/**
 * Mouse and keyboard protocols end to end: the real domterm with a real
 * program on the PTY (fixtures/input/pty_recorder.ts, which sets the modes
 * and records every byte it reads) and the real client in headless
 * Chromium. Each test checks the exact bytes the program received.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { type Running, startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const RECORDER = new URL("./fixtures/input/pty_recorder.ts", import.meta.url)
  .pathname;

/** Start domterm running the recorder in `mode`; returns it and its output file. */
async function startRecorder(
  mode: string,
  viewport?: { width: number; height: number },
): Promise<{ t: Running; file: string }> {
  const file = await Deno.makeTempFile({ prefix: "domterm-recorder-" });
  const t = await startDomterm([
    Deno.execPath(),
    "run",
    "-A",
    RECORDER,
    file,
    mode,
  ], { viewport });
  try {
    await waitForRow(t.page, "READY", 60_000);
  } catch (e) {
    await t.close();
    throw e;
  }
  return { t, file };
}

/** Wait until the program has received exactly `want` (fails with what it got). */
async function received(file: string, want: string, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let got = "";
  while (Date.now() < deadline) {
    got = new TextDecoder("latin1").decode(await Deno.readFile(file));
    if (got === want) return;
    if (got.length > want.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assertEquals(JSON.stringify(got), JSON.stringify(want));
}

/** Viewport point of the middle of cell (col, row) of the screen whose row 0 reads READY. */
function cellCenter(
  page: Page,
  col: number,
  row: number,
): Promise<{ x: number; y: number }> {
  return page.evaluate(([col, row]) => {
    const rows = Array.from(document.querySelectorAll("#terminal .dt-row"))
      .filter((r) => (r as HTMLElement).offsetParent !== null);
    const ready = rows.find((r) => r.textContent?.startsWith("READY"))!;
    const root = document.getElementById("terminal")!;
    const w = parseFloat(root.style.getPropertyValue("--dt-cell-w"));
    const h = parseFloat(root.style.getPropertyValue("--dt-cell-h"));
    const r = ready.getBoundingClientRect();
    return { x: r.left + (col + 0.5) * w, y: r.top + (row + 0.5) * h };
  }, [col, row]);
}

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({
    name: `e2e mouse/keys: ${name}`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn,
  });

test("a click with ?1000;1006 arrives as SGR press and release", async () => {
  const { t, file } = await startRecorder("mouse-sgr");
  try {
    const p = await cellCenter(t.page, 4, 2);
    await t.page.mouse.click(p.x, p.y);
    await received(file, "\x1b[<0;5;3M\x1b[<0;5;3m");
    // Right button, with Ctrl: 2 + 16.
    await t.page.keyboard.down("Control");
    await t.page.mouse.click(p.x, p.y, { button: "right" });
    await t.page.keyboard.up("Control");
    await received(
      file,
      "\x1b[<0;5;3M\x1b[<0;5;3m\x1b[<18;5;3M\x1b[<18;5;3m",
    );
    // Shift bypasses tracking: nothing more is sent.
    await t.page.keyboard.down("Shift");
    await t.page.mouse.click(p.x, p.y);
    await t.page.keyboard.up("Shift");
    // A key after it is the barrier: the program gets input in order, so
    // if the click had sent anything it would come before the z.
    await t.page.keyboard.type("z");
    await received(
      file,
      "\x1b[<0;5;3M\x1b[<0;5;3m\x1b[<18;5;3M\x1b[<18;5;3mz",
    );
  } finally {
    await t.close();
  }
});

test("the wheel with tracking on sends 64 (up) and 65 (down)", async () => {
  const { t, file } = await startRecorder("mouse-sgr");
  try {
    const p = await cellCenter(t.page, 10, 1);
    await t.page.mouse.move(p.x, p.y);
    await t.page.mouse.wheel(0, -100);
    await received(file, "\x1b[<64;11;2M");
    await t.page.mouse.wheel(0, 100);
    await received(file, "\x1b[<64;11;2M\x1b[<65;11;2M");
  } finally {
    await t.close();
  }
});

test("a drag with ?1002 on the alternate screen reports motion per cell", async () => {
  const { t, file } = await startRecorder("mouse-sgr-alt");
  try {
    const a = await cellCenter(t.page, 1, 1);
    const b = await cellCenter(t.page, 3, 1);
    await t.page.mouse.move(a.x, a.y);
    await t.page.mouse.down();
    await t.page.mouse.move(b.x, b.y, { steps: 8 });
    await t.page.mouse.up();
    await received(
      file,
      "\x1b[<0;2;2M\x1b[<32;3;2M\x1b[<32;4;2M\x1b[<0;4;2m",
    );
  } finally {
    await t.close();
  }
});

test("default encoding: far columns arrive as raw bytes, not UTF-8", async () => {
  const { t, file } = await startRecorder("mouse-x10-bytes", {
    width: 1400,
    height: 400,
  });
  try {
    const cols = await t.page.evaluate(() =>
      (globalThis as unknown as Inspected)
        .domtermInspect.term.cols
    );
    const col = cols - 1;
    assert(col >= 95, `${cols} columns: too few to need a byte >= 0x80`);
    const p = await cellCenter(t.page, col, 0);
    await t.page.mouse.click(p.x, p.y);
    const c = String.fromCharCode(33 + col);
    await received(file, `\x1b[M ${c}!\x1b[M#${c}!`);
  } finally {
    await t.close();
  }
});

test("?1007: the wheel on the alternate screen sends cursor keys", async () => {
  const { t, file } = await startRecorder("alt-scroll");
  try {
    const p = await cellCenter(t.page, 5, 5);
    await t.page.mouse.move(p.x, p.y);
    const h = await t.page.evaluate(() =>
      parseFloat(
        document.getElementById("terminal")!.style.getPropertyValue(
          "--dt-cell-h",
        ),
      )
    );
    await t.page.mouse.wheel(0, 3 * h);
    await received(file, "\x1b[B\x1b[B\x1b[B");
  } finally {
    await t.close();
  }
});

test("kitty flag 1: keys arrive in CSI u form, text as text", async () => {
  const { t, file } = await startRecorder("kitty-1");
  try {
    await t.page.keyboard.press("Control+a");
    await t.page.keyboard.press("Escape");
    await t.page.keyboard.press("Alt+Shift+B");
    await t.page.keyboard.type("x");
    await t.page.keyboard.press("Enter");
    await received(file, "\x1b[97;5u\x1b[27u\x1b[98;4ux\r");
  } finally {
    await t.close();
  }
});

test("kitty flag 2: key releases arrive too", async () => {
  const { t, file } = await startRecorder("kitty-3");
  try {
    await t.page.keyboard.press("a");
    await t.page.keyboard.press("ArrowUp");
    await received(file, "a\x1b[97;1:3u\x1b[A\x1b[1;1:3A");
  } finally {
    await t.close();
  }
});

test("modifyOtherKeys 2: Ctrl+Shift+letter and friends as xterm sends them", async () => {
  const { t, file } = await startRecorder("mok-2");
  try {
    // (Ctrl+Shift+B: a letter the window keeps no binding for; Ctrl+Shift+A
    // is the pane prefix.)
    await t.page.keyboard.press("Control+Shift+B");
    await t.page.keyboard.press("Control+a");
    await t.page.keyboard.press("Control+Comma");
    await t.page.keyboard.press("Shift+Enter");
    await t.page.keyboard.type("!");
    await received(
      file,
      "\x1b[27;6;66~\x1b[27;5;97~\x1b[27;5;44~\x1b[27;2;13~!",
    );
  } finally {
    await t.close();
  }
});

/** The terminal's font size in CSS pixels. */
function fontSize(page: Page): Promise<number> {
  return page.evaluate(() =>
    parseFloat(getComputedStyle(document.getElementById("terminal")!).fontSize)
  );
}

test("Ctrl+= / Ctrl+- / Ctrl+0 are the program's keys (emacs' C-= C-- C-0), not zoom", async () => {
  // modifyOtherKeys 1, as emacs sets it: xterm's CSI 27 ; 5 ; code ~.
  let { t, file } = await startRecorder("mok-1");
  try {
    const font = await fontSize(t.page);
    await t.page.keyboard.press("Control+Equal");
    await t.page.keyboard.press("Control+Minus");
    await t.page.keyboard.press("Control+0");
    await received(file, "\x1b[27;5;61~\x1b[27;5;45~\x1b[27;5;48~");
    assertEquals(await fontSize(t.page), font, "no zoom");
    // Zoom is on Ctrl+Shift (and sends nothing).
    await t.page.keyboard.press("Control+Shift+Equal");
    await t.page.waitForFunction(
      (f) =>
        parseFloat(
          getComputedStyle(document.getElementById("terminal")!).fontSize,
        ) > f,
      font,
    );
    await t.page.keyboard.press("Control+Shift+0");
    await t.page.waitForFunction(
      (f) =>
        parseFloat(
          getComputedStyle(document.getElementById("terminal")!).fontSize,
        ) === f,
      font,
    );
    await t.page.keyboard.type("x");
    await received(file, "\x1b[27;5;61~\x1b[27;5;45~\x1b[27;5;48~x");
  } finally {
    await t.close();
  }
  // The kitty protocol: CSI code ; 5 u.
  ({ t, file } = await startRecorder("kitty-1"));
  try {
    await t.page.keyboard.press("Control+Equal");
    await received(file, "\x1b[61;5u");
  } finally {
    await t.close();
  }
  // The legacy encoding has no bytes for Ctrl+= (as xterm's keyboard maps
  // it there is no control character): nothing arrives, the page does not
  // zoom either; Ctrl+/ still sends 0x1f (Ctrl+_, which zoom out takes).
  ({ t, file } = await startRecorder("plain"));
  try {
    const font = await fontSize(t.page);
    const zoom = await t.page.evaluate(() => globalThis.devicePixelRatio);
    await t.page.keyboard.press("Control+Equal");
    await t.page.keyboard.press("Control+Slash");
    await t.page.keyboard.type("y");
    await received(file, "\x1fy");
    assertEquals(await fontSize(t.page), font, "no zoom");
    assertEquals(
      await t.page.evaluate(() => globalThis.devicePixelRatio),
      zoom,
      "no page zoom",
    );
  } finally {
    await t.close();
  }
});

test("tracking off: the wheel scrolls the history and a drag selects", async () => {
  const { t, file } = await startRecorder("history");
  try {
    const p = await cellCenter(t.page, 0, 0);
    const scrollTop = () =>
      t.page.evaluate(() =>
        document.querySelector("#terminal .dt-viewport")!.scrollTop
      );
    const before = await scrollTop();
    await t.page.mouse.move(p.x + 40, p.y + 40);
    await t.page.mouse.wheel(0, -300);
    await t.page.waitForFunction(
      (b) => document.querySelector("#terminal .dt-viewport")!.scrollTop < b,
      before,
    );
    await t.page.mouse.wheel(0, 1000);
    await t.page.waitForFunction(() => {
      const vp = document.querySelector("#terminal .dt-viewport")!;
      return vp.scrollHeight - vp.scrollTop - vp.clientHeight < 4;
    });
    const end = await cellCenter(t.page, 5, 0);
    await t.page.mouse.move(p.x - 2, p.y);
    await t.page.mouse.down();
    await t.page.mouse.move(end.x, end.y, { steps: 5 });
    await t.page.mouse.up();
    assertEquals(
      await t.page.evaluate(() => document.getSelection()!.toString()),
      "READY",
    );
    // A key after it is the barrier: the program gets input in order, so
    // if the wheel or the drag had sent anything it would come before the z.
    await t.page.keyboard.type("z");
    await received(file, "z");
  } finally {
    await t.close();
  }
});
