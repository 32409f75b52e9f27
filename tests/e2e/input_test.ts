/**
 * The browser input layer (client/input.ts) in a real headless Chromium:
 * keys, text, paste, IME composition and focus reports, recorded by the
 * harness in tests/e2e/fixtures/input/harness.ts.
 */
import { bundleForBrowser } from "./bundle.ts";
import {
  deepStrictEqual as assertEquals,
  ok as assert,
} from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sharedChromium } from "./chromium.ts";
import type { InputModes } from "../../core/terminal_view.ts";

const ORIGIN = "http://localhost:8917";
const HARNESS = new URL("./fixtures/input/harness.ts", import.meta.url);

/** Bundle the harness once per run. */
function harnessScript(): Promise<string> {
  return bundleForBrowser(HARNESS);
}

interface Harness {
  browser: Browser;
  /** The test's own context on the shared browser (closed after it). */
  context: BrowserContext;
  page: Page;
  /** Everything sent so far, joined. */
  sent(): Promise<string>;
  /** Each send call's data. */
  sends(): Promise<string[]>;
  clear(): Promise<void>;
  setModes(modes: Partial<InputModes>): Promise<void>;
}

type Win = {
  sent: string[];
  modes: InputModes;
  focusChanges: boolean[];
  userInputs: number;
  copies: number;
};

/** A page at a localhost origin (a secure context, for the clipboard API) running the harness. */
async function open(): Promise<Harness> {
  const js = await harnessScript();
  const browser = await sharedChromium();
  const context = await browser.newContext();
  try {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: ORIGIN,
    });
    const page = await context.newPage();
    await page.route(`${ORIGIN}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/harness.js") {
        return route.fulfill({ contentType: "text/javascript", body: js });
      }
      return route.fulfill({
        contentType: "text/html",
        body: `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>` +
          `<button id="outside">outside</button>` +
          `<script type="module" src="/harness.js"></script></body></html>`,
      });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => "input" in globalThis);
    return { browser, context, page, ...helpers(page) };
  } catch (e) {
    await context.close();
    throw e;
  }
}

/** The harness's recorders, read through one page. */
function helpers(
  page: Page,
): Omit<Harness, "browser" | "context" | "page"> {
  return {
    sent: () =>
      page.evaluate(() => (globalThis as unknown as Win).sent.join("")),
    sends: () =>
      page.evaluate(() => (globalThis as unknown as Win).sent.slice()),
    clear: () =>
      page.evaluate(() => {
        (globalThis as unknown as Win).sent.length = 0;
      }),
    setModes: (modes: Partial<InputModes>) =>
      page.evaluate((m) => {
        const g = globalThis as unknown as Win;
        g.modes = { ...g.modes, ...m };
      }, modes),
  };
}

/** Open the harness, run `fn`, always close its context. */
async function withHarness(fn: (h: Harness) => Promise<void>): Promise<void> {
  const h = await open();
  try {
    await fn(h);
  } finally {
    await h.context.close();
  }
}

const test = (name: string, fn: (h: Harness) => Promise<void>) =>
  Deno.test({
    name: `e2e input: ${name}`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => withHarness(fn),
  });

test("typing text and Enter", async (h) => {
  await h.page.evaluate(() => {
    const w = globalThis as unknown as { inputEvents: number };
    w.inputEvents = 0;
    document.querySelector("textarea")!.addEventListener(
      "input",
      () => w.inputEvents++,
    );
  });
  await h.page.keyboard.type("echo hi");
  await h.page.keyboard.press("Enter");
  assertEquals(await h.sent(), "echo hi\r");
  // One send per key, the textarea emptied after each.
  assertEquals((await h.sends()).length, 8);
  assertEquals(
    await h.page.evaluate(() => document.querySelector("textarea")!.value),
    "",
  );
  assertEquals(
    await h.page.evaluate(() => (globalThis as unknown as Win).userInputs),
    8,
  );
  // Shifted keys too are sent from keydown (with the default prevented,
  // the page has nothing to draw for a key); text that comes without a
  // key of the layout (é here, IME, virtual keyboards) through the input
  // event.
  await h.clear();
  await h.page.keyboard.type("A!");
  assertEquals(
    await h.page.evaluate(() =>
      (globalThis as unknown as { inputEvents: number }).inputEvents
    ),
    0,
  );
  await h.page.keyboard.type("é");
  await h.page.keyboard.insertText("世界");
  assertEquals(await h.sent(), "A!é世界");
});

test("arrows in normal and application cursor mode", async (h) => {
  for (
    const k of [
      "ArrowUp",
      "ArrowDown",
      "ArrowRight",
      "ArrowLeft",
      "Home",
      "End",
    ]
  ) {
    await h.page.keyboard.press(k);
  }
  assertEquals(await h.sent(), "\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F");
  await h.clear();
  await h.setModes({ applicationCursorKeys: true });
  for (const k of ["ArrowUp", "ArrowDown", "ArrowRight", "ArrowLeft"]) {
    await h.page.keyboard.press(k);
  }
  await h.page.keyboard.press("Control+ArrowLeft");
  assertEquals(await h.sent(), "\x1bOA\x1bOB\x1bOC\x1bOD\x1b[1;5D");
});

test("control, Alt and function keys", async (h) => {
  const cases: [string, string][] = [
    ["Control+c", "\x03"],
    ["Control+v", "\x16"],
    ["Control+a", "\x01"],
    ["Control+BracketLeft", "\x1b"],
    ["Control+Space", "\x00"],
    ["Alt+b", "\x1bb"],
    ["Alt+Shift+B", "\x1bB"],
    ["F1", "\x1bOP"],
    ["F5", "\x1b[15~"],
    ["Shift+F5", "\x1b[15;2~"],
    ["Control+F12", "\x1b[24;5~"],
    ["Backspace", "\x7f"],
    ["Alt+Backspace", "\x1b\x7f"],
    ["Tab", "\t"],
    ["Shift+Tab", "\x1b[Z"],
    ["Escape", "\x1b"],
    ["Delete", "\x1b[3~"],
    ["PageUp", "\x1b[5~"],
  ];
  const bad: string[] = [];
  for (const [key, want] of cases) {
    await h.clear();
    await h.page.keyboard.press(key);
    const got = await h.sent();
    if (got !== want) {
      bad.push(
        `${key}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`,
      );
    }
  }
  assertEquals(bad, []);
});

test("keypad in application keypad mode", async (h) => {
  // Playwright's keypad is NumLock-off: Numpad5 is "Clear", Shift+Numpad5 is "5".
  await h.page.keyboard.press("Numpad5");
  await h.page.keyboard.press("Shift+Numpad5");
  await h.page.keyboard.press("NumpadEnter");
  assertEquals(await h.sent(), "\x1b[E5\r");
  await h.clear();
  await h.setModes({ applicationKeypad: true });
  await h.page.keyboard.press("Shift+Numpad5");
  await h.page.keyboard.press("NumpadAdd");
  await h.page.keyboard.press("NumpadEnter");
  await h.page.keyboard.press("Numpad8");
  assertEquals(await h.sent(), "\x1bOu\x1bOk\x1bOM\x1b[A");
});

test("browser shortcuts that are not ours pass through", async (h) => {
  await h.page.evaluate(() => {
    const g = globalThis as unknown as { prevented: string[] };
    g.prevented = [];
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey && e.defaultPrevented) g.prevented.push(e.key);
    });
  });
  await h.page.keyboard.press("Control+Shift+I");
  await h.page.keyboard.press("Control+Equal");
  await h.page.keyboard.press("Control+c");
  assertEquals(await h.sent(), "\x03");
  assertEquals(
    await h.page.evaluate(() =>
      (globalThis as unknown as { prevented: string[] }).prevented
    ),
    ["c"],
  );
});

/** Dispatch a paste event with `text` on the focused element. */
function synthPaste(page: Page, text: string): Promise<boolean> {
  return page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData("text/plain", t);
    const ev = new ClipboardEvent("paste", {
      clipboardData: dt,
      bubbles: true,
      cancelable: true,
    });
    (document.activeElement ?? document.body).dispatchEvent(ev);
    return ev.defaultPrevented;
  }, text);
}

test("multi-line paste, plain and bracketed", async (h) => {
  assert(await synthPaste(h.page, "ls -l\necho two\r\nend"));
  assertEquals(await h.sent(), "ls -l\recho two\rend");
  await h.clear();
  await h.setModes({ bracketedPaste: true });
  await synthPaste(h.page, "a\nb\x1b[201~c\n");
  assertEquals(await h.sent(), "\x1b[200~a\rbc\r\x1b[201~");
  // Nothing was left in the textarea.
  assertEquals(
    await h.page.evaluate(() => document.querySelector("textarea")!.value),
    "",
  );
});

test("Ctrl+Shift+V pastes the clipboard, Ctrl+Shift+C copies the selection", async (h) => {
  await h.page.evaluate(() => navigator.clipboard.writeText("one\ntwo"));
  await h.setModes({ bracketedPaste: true });
  await h.page.keyboard.press("Control+Shift+V");
  await h.page.waitForFunction(() =>
    (globalThis as unknown as Win).sent.length > 0
  );
  assertEquals(await h.sends(), ["\x1b[200~one\rtwo\x1b[201~"]);

  // Select text with the mouse: the selection survives (no refocus).
  await h.clear();
  const box = (await h.page.locator("#text").boundingBox())!;
  await h.page.mouse.move(box.x + 1, box.y + box.height / 2);
  await h.page.mouse.down();
  await h.page.mouse.move(box.x + box.width - 1, box.y + box.height / 2, {
    steps: 5,
  });
  await h.page.mouse.up();
  const selected = await h.page.evaluate(() =>
    document.getSelection()!.toString()
  );
  assertEquals(selected, "selectable terminal text");
  assert(
    await h.page.evaluate(() =>
      (globalThis as unknown as Win & { input: { focused: boolean } }).input
        .focused
    ),
  );
  await h.page.keyboard.press("Control+Shift+C");
  assertEquals(
    await h.page.evaluate(() => navigator.clipboard.readText()),
    selected,
  );
  assertEquals(
    await h.page.evaluate(() => (globalThis as unknown as Win).copies),
    1,
  );
  assertEquals(await h.sent(), "");
  // Typing goes to the terminal again (and the textarea gets focus back).
  await h.page.keyboard.type("x");
  await h.page.keyboard.press("ArrowUp");
  assertEquals(await h.sent(), "x\x1b[A");
  assertEquals(
    await h.page.evaluate(() => document.activeElement?.tagName),
    "TEXTAREA",
  );
  // A plain click (no selection) focuses the textarea.
  await h.page.locator("#outside").click();
  await h.page.mouse.click(box.x + 5, box.y + 100);
  assertEquals(
    await h.page.evaluate(() => document.activeElement?.tagName),
    "TEXTAREA",
  );
});

test("IME composition sends only the final text, once", async (h) => {
  const cdp = await h.page.context().newCDPSession(h.page);
  await cdp.send("Input.imeSetComposition", {
    text: "n",
    selectionStart: 1,
    selectionEnd: 1,
  });
  await cdp.send("Input.imeSetComposition", {
    text: "に",
    selectionStart: 1,
    selectionEnd: 1,
  });
  await cdp.send("Input.imeSetComposition", {
    text: "にほんご",
    selectionStart: 4,
    selectionEnd: 4,
  });
  // While composing: nothing sent, the text shown at the cursor.
  assertEquals(await h.sends(), []);
  const view = await h.page.evaluate(() => {
    const el = document.querySelector(".dt-composition") as HTMLElement;
    const r = el.getBoundingClientRect();
    const c = document.getElementById("cursor")!.getBoundingClientRect();
    const ta = document.querySelector("textarea")!.getBoundingClientRect();
    return {
      text: el.textContent,
      shown: getComputedStyle(el).display !== "none",
      atCursor: Math.abs(r.left - c.left) < 1 && Math.abs(r.top - c.top) < 1,
      textareaAtCursor: Math.abs(ta.left - c.left) < 1 &&
        Math.abs(ta.top - c.top) < 1,
    };
  });
  assertEquals(view, {
    text: "にほんご",
    shown: true,
    atCursor: true,
    textareaAtCursor: true,
  });
  await cdp.send("Input.insertText", { text: "日本語" });
  await h.page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assertEquals(await h.sends(), ["日本語"]);
  assertEquals(
    await h.page.evaluate(() =>
      getComputedStyle(document.querySelector(".dt-composition")!).display
    ),
    "none",
  );
  // Typing right after a composition is not mistaken for a duplicate.
  await h.page.keyboard.type("日");
  await h.page.keyboard.press("Enter");
  assertEquals(await h.sends(), ["日本語", "日", "\r"]);

  // Dead key as a composition, followed by an input event for the same
  // text (Chromium on some platforms): sent once.
  await h.clear();
  await h.page.evaluate(() => {
    const ta = document.querySelector("textarea")!;
    ta.dispatchEvent(new CompositionEvent("compositionstart", { data: "" }));
    ta.dispatchEvent(new CompositionEvent("compositionupdate", { data: "´" }));
    ta.dispatchEvent(new CompositionEvent("compositionend", { data: "é" }));
    ta.dispatchEvent(
      new InputEvent("input", { inputType: "insertText", data: "é" }),
    );
  });
  await h.page.evaluate(() => new Promise((r) => setTimeout(r, 20)));
  await h.page.keyboard.type("é");
  assertEquals(await h.sends(), ["é", "é"]);
  await cdp.detach();
});

test("focus reports when enabled", async (h) => {
  // Off: focus changes are reported to the page only.
  await h.page.locator("#outside").focus();
  await h.page.locator("textarea").focus();
  assertEquals(await h.sent(), "");
  await h.setModes({ sendFocus: true });
  await h.page.locator("#outside").focus();
  await h.page.locator("textarea").focus();
  assertEquals(await h.sent(), "\x1b[O\x1b[I");
  // Clicking inside the terminal is not a focus change.
  await h.clear();
  const box = (await h.page.locator("#term").boundingBox())!;
  await h.page.mouse.click(box.x + 100, box.y + 150);
  assertEquals(await h.sent(), "");
  assertEquals(
    await h.page.evaluate(() => (globalThis as unknown as Win).focusChanges),
    [true, false, true, false, true], // the harness focuses once at start
  );
  // Focus reports do not count as user input.
  assertEquals(
    await h.page.evaluate(() => (globalThis as unknown as Win).userInputs),
    0,
  );
});

test("kitty flags: presses and releases, only for keys that reached the program", async (h) => {
  await h.setModes({ kittyFlags: 3 });
  await h.page.keyboard.press("a");
  await h.page.keyboard.press("Control+Shift+C"); // the page's copy shortcut
  await h.page.keyboard.press("Escape");
  await h.page.keyboard.press("Control+b");
  assertEquals(
    await h.sent(),
    "a\x1b[97;1:3u\x1b[27u\x1b[27;1:3u\x1b[98;5u\x1b[98;5:3u",
  );
  // Flag 8: text keys and lone modifiers are key events too.
  await h.clear();
  await h.setModes({ kittyFlags: 10 });
  await h.page.keyboard.press("Shift+A");
  assertEquals(
    await h.sent(),
    "\x1b[57441;2u\x1b[97;2u\x1b[97;2:3u\x1b[57441;1:3u",
  );
  // No flags: releases send nothing, as before.
  await h.clear();
  await h.setModes({ kittyFlags: 0, modifyOtherKeys: 2 });
  await h.page.keyboard.press("Control+Period");
  assertEquals(await h.sent(), "\x1b[27;5;46~");
});
