/**
 * Accessibility end to end (client/a11y/, docs/accessibility.md): a real
 * bash with shell integration in headless Chromium.
 *
 * - What the live region receives (a MutationObserver on it): a command's
 *   output once, without the echo of the keys typed; a 100,000-line flood
 *   as a bounded number of announcements that count every line; a failed
 *   command said to have failed.
 * - The accessibility tree as Chromium builds it (CDP
 *   `Accessibility.getFullAXTree`): the live region, the input, the rows'
 *   text, the command regions ("echo hi, exit 0, 1 line"), the controls.
 * - The prompt keys say the command; Ctrl+Shift+H reads its output; tab
 *   focus mode lets Tab leave the terminal and come back.
 * - The minimum contrast: bold bright white on the light theme is drawn
 *   readable, and 1 turns it off.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import type { Page } from "playwright-core";
import { type Running, startDomterm, waitForRow } from "./domterm.ts";

async function startBash(
  viewport = { width: 800, height: 480 },
  serverArgs: string[] = [],
): Promise<Running> {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-a11y-" });
  await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
  return await startDomterm(["bash"], {
    env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
    viewport,
    serverArgs,
  });
}

/** Start recording what the live region receives. */
async function record(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as { __said: string[] };
    const again = Array.isArray(g.__said);
    g.__said = [];
    if (again) return;
    const live = document.querySelector(".dt-live")!;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) g.__said.push(n.textContent ?? "");
      }
    }).observe(live, { childList: true });
  });
}

function said(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (globalThis as unknown as { __said: string[] }).__said.slice()
  );
}

/** Wait until the live region was quiet for `ms` (and return what it got). */
async function settle(page: Page, ms = 1500): Promise<string[]> {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const n = (await said(page)).length;
    if (n !== last) {
      last = n;
      since = Date.now();
    } else if (Date.now() - since >= ms) return await said(page);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Poll `check` every 50 ms until it holds (at most `timeoutMs`). */
async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface AXNode {
  role?: { value: string };
  name?: { value: string };
  ignored?: boolean;
}

/** The accessibility tree's nodes as "role: name" (ignored ones left out). */
async function axTree(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send("Accessibility.getFullAXTree") as {
    nodes: AXNode[];
  };
  await cdp.detach();
  return nodes.filter((n) => !n.ignored).map((n) =>
    `${n.role?.value ?? ""}: ${n.name?.value ?? ""}`
  );
}

Deno.test("e2e a11y: output is announced once, without the echo; a flood is counted; a failure is said; the AX tree names everything", async () => {
  // A history that holds the whole flood (its command's group with it).
  const t = await startBash(undefined, ["--scrollback", "200000"]);
  const { page } = t;
  try {
    await waitForRow(page, "$");
    await page.waitForTimeout(500);
    await record(page);

    // One typed key: the screen reader's typing echo speaks it; its echo
    // from the program adds nothing to the live region.
    await page.keyboard.type("x");
    await waitForRow(page, "$ x");
    assertEquals(await settle(page, 1000), []);
    await page.keyboard.press("Backspace");
    await waitForRow(page, "$");
    await settle(page, 800);

    // A command: its output exactly once, the echo of its line never.
    await record(page);
    await page.keyboard.type("echo hi-there");
    await page.keyboard.press("Enter");
    await waitForRow(page, "hi-there");
    const one = await settle(page);
    assertEquals(one.length, 1, JSON.stringify(one));
    assertMatch(one[0], /^hi-there\n\$$/);
    assert(!one.join("\n").includes("echo"), JSON.stringify(one));

    // A failed command is said to have failed, after its output.
    await record(page);
    await page.keyboard.type("ls /nonexistent-a11y");
    await page.keyboard.press("Enter");
    const failed = (await settle(page)).join("\n");
    assertMatch(
      failed,
      /No such file or directory\nCommand failed: exit status 2\n/,
    );

    // The accessibility tree.
    const tree = await axTree(page);
    const has = (re: RegExp) =>
      assert(
        tree.some((n) => re.test(n)),
        `${re}: ${tree.filter((n) => !/^InlineTextBox/.test(n)).join("\n")}`,
      );
    has(/^main: Terminal$/);
    has(/^log: Terminal output$/);
    has(/^region: prompt$/);
    has(/^textbox: Terminal input$/);
    has(/^region: echo hi-there, exit 0, 1 line$/);
    has(/^region: ls \/nonexistent-a11y, failed, exit 2, 1 line$/);
    has(/^button: Menu$/);
    has(/^StaticText: hi-there$/);
    has(/^button: Hide the output \(1 line\)$/);
    // A flood of 100,000 lines: a bounded number of announcements that
    // account for every line, counted rather than read.
    await record(page);
    const start = Date.now();
    await page.keyboard.type("seq 1 100000");
    await page.keyboard.press("Enter");
    await waitForRow(page, "100000", 60_000);
    const flood = await settle(page);
    const secs = (Date.now() - start) / 1000;
    console.log(
      `flood: ${flood.length} announcements in ${secs.toFixed(1)} s: ${
        JSON.stringify(flood.map((s) => s.slice(0, 40)))
      }`,
    );
    assert(flood.length >= 1 && flood.length <= secs + 3, String(flood.length));
    let lines = 0;
    for (const s of flood) {
      const m = /^([\d,]+) lines of output/.exec(s);
      if (m) lines += Number(m[1].replaceAll(",", ""));
      else lines += s.split("\n").length - 1;
    }
    // Every line of seq's output (and the line break after the command).
    assert(lines >= 100_000 && lines <= 100_002, `${lines} lines counted`);
    assert(flood.every((s) => s.length < 100), "nothing read out in full");

    // Its output on demand (Ctrl+Shift+H): the start of it, counted.
    await record(page);
    await page.keyboard.press("Control+Shift+H");
    const read = await settle(page, 800);
    assertEquals(read.length, 1);
    assertMatch(
      read[0],
      /^seq 1 100000, exit 0, 100,000 lines:\n1\n2\n3\n[^]*\n200\n\u2026 and 99800 more lines$/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("e2e a11y: the prompt keys say the command, Ctrl+Shift+H reads its output, tab focus mode lets Tab out and back", async () => {
  const t = await startBash();
  const { page } = t;
  try {
    await waitForRow(page, "$");
    await record(page);
    await page.keyboard.type("printf 'one\\ntwo\\n'");
    await page.keyboard.press("Enter");
    await waitForRow(page, "two");
    // The printf's output and its prompt announced (one announcement, or
    // the prompt in a later one).
    const promptAfter = async (i: number) =>
      (await said(page)).findIndex((s, k) => k >= i && /\$$/.test(s));
    let two = -1, prompt = -1;
    await waitFor("the printf's prompt announced", async () => {
      two = (await said(page)).findIndex((s) => s.includes("two"));
      prompt = two < 0 ? -1 : await promptAfter(two);
      return prompt >= 0;
    });
    await page.keyboard.type("true");
    await page.keyboard.press("Enter");
    // Its prompt's announcement (at most one a second) is out of the way:
    // waited for, not slept on.
    await waitFor(
      "true's prompt announced",
      async () => (await promptAfter(prompt + 1)) >= 0,
    );
    await record(page);
    await page.keyboard.press("Control+Shift+ArrowUp");
    await page.keyboard.press("Control+Shift+ArrowUp");
    await page.keyboard.press("Control+Shift+H");
    const got = await settle(page, 800);
    assertEquals(got, [
      "true, exit 0, 0 lines",
      "printf 'one\\ntwo\\n', exit 0, 2 lines",
      "printf 'one\\ntwo\\n', exit 0, 2 lines:\none\ntwo",
    ]);

    // Tab goes to the program (bash completes), until tab focus mode.
    const focusedIsInput = () =>
      page.evaluate(() =>
        document.activeElement?.getAttribute("aria-label") === "Terminal input"
      );
    await page.keyboard.press("Tab");
    assert(await focusedIsInput());
    await page.keyboard.press("Control+Shift+E");
    await page.keyboard.press("Tab");
    assert(!(await focusedIsInput()), "Tab left the terminal");
    const out = await page.evaluate(() =>
      document.activeElement?.getAttribute("aria-label") ??
        document.activeElement?.tagName
    );
    assert(out !== null, String(out));
    await page.keyboard.press("Shift+Tab");
    assert(await focusedIsInput(), "Shift+Tab came back");
    await page.keyboard.press("Control+Shift+E");
    await page.keyboard.press("Tab");
    assert(await focusedIsInput());
    const notes = (await said(page)).join("\n");
    assertMatch(notes, /Tab moves the focus out of the terminal/);
    assertMatch(notes, /Tab goes to the program/);
  } finally {
    await t.close();
  }
});

Deno.test("e2e a11y: minimum contrast: bold bright white is readable on the light theme, 7:1 with prefers-contrast: more; 1 turns it off", async () => {
  const t = await startBash();
  const { page } = t;
  try {
    await page.emulateMedia({ colorScheme: "light" });
    await waitForRow(page, "$");
    await page.keyboard.type(
      "printf '\\e[1;97mBRIGHT\\e[0m \\e[38;2;250;250;250;48;5;15mRGB\\e[0m\\n'",
    );
    await page.keyboard.press("Enter");
    await waitForRow(page, "BRIGHT RGB");
    const ratios = () =>
      page.evaluate(() => {
        const lum = (css: string) => {
          const [r, g, b] = css.match(/\d+/g)!.slice(0, 3).map((v) => {
            const s = Number(v) / 255;
            return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const ratio = (a: string, b: string) => {
          const x = lum(a), y = lum(b);
          return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
        };
        const spans = [...document.querySelectorAll("#terminal .dt-row span")];
        const bg = getComputedStyle(document.querySelector("#terminal")!)
          .backgroundColor;
        const of = (text: string) => {
          const s = spans.find((e) => e.textContent === text)!;
          const cs = getComputedStyle(s);
          const back = cs.backgroundColor === "rgba(0, 0, 0, 0)"
            ? bg
            : cs.backgroundColor;
          return ratio(cs.color, back);
        };
        return [of("BRIGHT"), of("RGB")];
      });
    const [bright, rgb] = await ratios();
    assert(bright >= 4.5, `bold bright white: ${bright}`);
    assert(rgb >= 4.5, `direct colour on palette background: ${rgb}`);
    const dir = Deno.env.get("DT_SCREENSHOT_DIR");
    if (dir) await page.screenshot({ path: join(dir, "a11y-contrast.png") });
    // The desktop asks for more contrast: 7:1.
    await page.emulateMedia({ contrast: "more" });
    await page.waitForTimeout(300);
    const [more] = await ratios();
    assert(more >= 7, `prefers-contrast: more: ${more}`);
    await page.emulateMedia({ contrast: "no-preference" });
    // Off (OSC 88: this window's settings): the program's colours as they
    // were, unreadable.
    await page.keyboard.type(
      `printf '\\e]88;{"minimum-contrast-ratio":1}\\a'`,
    );
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
    const [off] = await ratios();
    assert(off < 1.5, `off: ${off}`);
  } finally {
    await t.close();
  }
});

Deno.test("e2e a11y: reduced motion stops blinking; forced colours keep the cursor; at 200% zoom the menu, find bar and settings fit", async () => {
  // 400 x 240 CSS pixels: an 800 x 480 window at 200% zoom.
  const t = await startBash({ width: 400, height: 240 });
  const { page } = t;
  try {
    await waitForRow(page, "$");
    await page.keyboard.type("printf '\\e[5mblink\\e[0m\\e[?12h\\e[1 q\\n'");
    await page.keyboard.press("Enter");
    await waitForRow(page, "blink");
    const animations = () =>
      page.evaluate(() => {
        const blink = [...document.querySelectorAll("#terminal .dt-blink")]
          .find((e) => e.textContent === "blink")!;
        const cursor = document.querySelector("#terminal .dt-cursor")!;
        return [
          getComputedStyle(blink).animationName,
          cursor.className,
          getComputedStyle(cursor).animationName,
        ];
      });
    const moving = await animations();
    assertEquals(moving[0], "dt-blink");
    assertMatch(moving[1], /dt-cursor-blink/);
    assertEquals(moving[2], "dt-cursor-blink");
    await page.emulateMedia({ reducedMotion: "reduce" });
    const still = await animations();
    assertEquals([still[0], still[2]], ["none", "none"]);

    // Forced colours: the cursor is drawn in system colours with an outline.
    await page.emulateMedia({ forcedColors: "active" });
    const outline = await page.evaluate(() =>
      getComputedStyle(document.querySelector("#terminal .dt-cursor")!)
        .outlineStyle
    );
    assertEquals(outline, "solid");
    await page.emulateMedia({ forcedColors: "none" });

    const inView = (sel: string) =>
      page.evaluate((s) => {
        const r = document.querySelector(s)!.getBoundingClientRect();
        return r.left >= 0 && r.top >= 0 && r.right <= innerWidth &&
          r.bottom <= innerHeight;
      }, sel);
    const dir = Deno.env.get("DT_SCREENSHOT_DIR");
    await page.keyboard.press("Shift+F10");
    await page.waitForSelector(".dt-menu");
    assert(await inView(".dt-menu"), "the menu fits (it scrolls)");
    // The last entry is reachable with the keyboard.
    await page.keyboard.press("End");
    assert(await inView(".dt-menu-item:focus"), "the last entry shows");
    if (dir) await page.screenshot({ path: join(dir, "a11y-zoom-menu.png") });
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+Shift+F");
    await page.waitForSelector(".dt-find:not([hidden])");
    assert(await inView(".dt-find"), "the find bar fits");
    if (dir) await page.screenshot({ path: join(dir, "a11y-zoom-find.png") });
    await page.keyboard.press("Escape");
    await page.keyboard.press("Shift+F10");
    await page.click('.dt-menu-item[data-action="settings"]');
    await page.waitForSelector(".dt-settings", { state: "visible" });
    assert(await inView(".dt-settings"), "the settings page fits");
    if (dir) {
      await page.screenshot({ path: join(dir, "a11y-zoom-settings.png") });
    }
  } finally {
    await t.close();
  }
});

Deno.test("e2e a11y: the alternate screen is a region 'Full-screen program' whose rows are read, and its cursor's line is announced when it changes", async () => {
  const t = await startBash();
  const { page } = t;
  try {
    await waitForRow(page, "$");
    await page.waitForTimeout(500);
    await record(page);
    // A full-screen program's screen: two rows, the cursor on the second;
    // then the cursor moves to row 4 and writes there; then it leaves.
    await page.keyboard.type(
      "printf '\\e[?1049h\\e[H\\e[2Jtop row\\r\\ncursor row'; sleep 2.5; " +
        "printf '\\e[4;1Hrow four'; sleep 2.5; printf '\\e[?1049l'",
    );
    await page.keyboard.press("Enter");
    await waitForRow(page, "cursor row");
    const tree = await axTree(page);
    const at = tree.indexOf("region: Full-screen program");
    assert(at >= 0, tree.filter((n) => !/^InlineTextBox/.test(n)).join("\n"));
    assert(
      tree.slice(at).includes("StaticText: top row"),
      "its rows are in the tree",
    );
    await waitForRow(page, "row four");
    const got = await settle(page, 1000);
    assertEquals(got.slice(0, 2), ["cursor row", "row four"]);
  } finally {
    await t.close();
  }
});

Deno.test("e2e a11y: a notification is said; the OSC 52 request is a labelled alertdialog run by the keyboard; the pager's bar is a status", async () => {
  const t = await startBash();
  const { page } = t;
  try {
    await waitForRow(page, "$");
    await page.waitForTimeout(500);
    // A desktop notification (OSC 9) is said in the live region too.
    await record(page);
    await page.keyboard.type("printf '\\e]9;build done\\a'");
    await page.keyboard.press("Enter");
    assertMatch((await settle(page)).join("\n"), /Notification: build done/);

    // OSC 52 read, asked: an alertdialog named and described; Allow has
    // the focus, Tab reaches Deny, Escape denies and gives the terminal
    // its focus back.
    await page.keyboard.type("printf '\\e]52;c;?\\e\\\\'");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".dt-clipboard-ask");
    const tree = await axTree(page);
    assert(tree.includes("alertdialog: Clipboard request"), tree.join("\n"));
    const focused = () =>
      page.evaluate(() =>
        document.activeElement?.getAttribute("aria-label") ??
          document.activeElement?.textContent
      );
    assertEquals(await focused(), "Allow");
    assertEquals(
      await page.evaluate(() =>
        document.getElementById(
          document.querySelector(".dt-clipboard-ask")!.getAttribute(
            "aria-describedby",
          )!,
        )?.textContent
      ),
      "A program asks to read the clipboard.",
    );
    await page.keyboard.press("Tab");
    assertEquals(await focused(), "Deny");
    await page.keyboard.press("Escape");
    await page.waitForSelector(".dt-clipboard-ask", { state: "detached" });
    assertEquals(await focused(), "Terminal input");

    // The automatic pager (the menu's entry, by the keyboard): its bar is
    // a status that says why it stopped and its keys; `a` goes on.
    await page.keyboard.press("Shift+F10");
    await page.waitForSelector(".dt-menu");
    await page.locator(".dt-menu-item", { hasText: "Automatic pager" })
      .focus();
    await page.keyboard.press("Enter");
    await page.keyboard.type("seq 1 2000");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".dt-pager:not([hidden])");
    const status = (await axTree(page)).filter((n) => /^status: /.test(n));
    const bar = await page.evaluate(() =>
      document.querySelector(".dt-pager")!.textContent
    );
    assertMatch(bar ?? "", /Space next page.*a pager off/);
    assert(
      (await page.getAttribute(".dt-pager", "role")) === "status",
      JSON.stringify(status),
    );
    await page.keyboard.press("a");
    await waitForRow(page, "2000", 30_000);
  } finally {
    await t.close();
  }
});
