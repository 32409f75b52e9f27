/**
 * Save as HTML end to end: a real bash session (shell integration on) with
 * colours, an imgcat PNG, a sixel image, OSC 72 fragments that try to run
 * script, a folded command and a long line; Ctrl+Shift+S downloads the
 * file, which is then opened in a fresh page from disk (file://, the
 * server's origin nowhere) and checked: text and colours, the images'
 * natural sizes, the fragments' allowed content and that none of their
 * script ran, the fold (closed as in the window, toggled by its summary),
 * and lines that re-wrap to a narrower window. Copying a selection in the
 * window gives text/plain and text/html. A screenshot of the saved file
 * goes to $DT_SCREENSHOT_DIR (default: a temporary directory).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import { bundleForBrowser } from "./bundle.ts";
import { launchChromium } from "./chromium.ts";
import { XSS_CORPUS } from "./fixtures/xss_corpus.ts";
import { SAVED_FILE_CSP } from "../../core/serialize/html.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
/** Deno's cache as it is for this test (the session's HOME is another). */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(
    Deno.env.get("XDG_CACHE_HOME") ??
      join(Deno.env.get("HOME") ?? "/", ".cache"),
    "deno",
  );

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("e2e save as HTML: Ctrl+Shift+S writes a standalone file that looks and folds like the window", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-save-" });
  await Deno.writeTextFile(
    join(dir, ".bashrc"),
    `PS1='$ '\nalias domterm="DENO_DIR='${DENO_DIR}' '${Deno.execPath()}' run -A '${MAIN}'"\n`,
  );
  // The fragments: allowed markup next to every way of running script.
  await Deno.writeTextFile(
    join(dir, "frag.txt"),
    `\x1b]72;<div class="frag"><b>allowed</b> <i>text</i>` +
      `<img src=x onerror="globalThis.pwned='img'">` +
      `<script>globalThis.pwned='script'</script>` +
      `<a id="js" href="javascript:globalThis.pwned='href'">js</a>` +
      `<svg width="10" height="10" onload="globalThis.pwned='svg'"><rect width="10" height="10" fill="orange"/></svg>` +
      `</div>\x07` +
      `inline \x1b]72;<span class="ifrag" onmouseover="globalThis.pwned='hover'">frag</span>\x07 end\n`,
  );
  await Deno.writeTextFile(
    join(dir, "sixel.txt"),
    `\x1bP0;1;0q"1;1;6;12#1;2;100;0;0#1~~~~~~-~~~~~~\x1b\\\n`,
  );
  const t = await startDomterm(["bash"], {
    env: { HOME: dir, DENO_DIR, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
    viewport: { width: 800, height: 480 },
  });
  const page = t.page;
  // The window in the dark theme (the default; headless Chromium prefers
  // light). The saved file keeps the window's colours whatever its viewer
  // prefers: it is opened in a light-preferring page below.
  await page.emulateMedia({ colorScheme: "dark" });
  const run = async (cmd: string, row: string, timeout = 15_000) => {
    await page.keyboard.type(cmd);
    await page.keyboard.press("Enter");
    await waitForRow(page, row, timeout);
  };
  try {
    await waitForRow(page, "$");
    const png = await page.evaluate(() => {
      const c = document.createElement("canvas");
      c.width = 40;
      c.height = 24;
      const ctx = c.getContext("2d")!;
      ctx.fillStyle = "#3a7";
      ctx.fillRect(0, 0, 40, 24);
      return c.toDataURL("image/png");
    });
    await Deno.writeFile(
      join(dir, "a.png"),
      Uint8Array.from(
        atob(png.slice(png.indexOf(",") + 1)),
        (c) => c.charCodeAt(0),
      ),
    );
    await run(`cd '${dir}'; printf '\\e[31mRED\\e[0m plain\\n'`, "RED plain");
    await run("domterm imgcat a.png; echo IMG-DONE", "IMG-DONE", 30_000);
    // (⚠: parts of the fragment were removed.)
    await run("cat frag.txt sixel.txt", "inline \u26a0frag end");
    await run("seq 30", "30");
    await run("echo 漢字テスト; seq -s ' ' 1 60", "$");
    await waitForRow(page, "漢字テスト");
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>("img.dt-img"))
        .every((i) => i.complete) &&
      document.querySelector("canvas.dt-sixel") !== null
    );

    // Fold `seq 30` through the shell UI, as its button does.
    const folded = await page.evaluate(() => {
      const ui = (globalThis as Any).domtermInspect.shellUi;
      ui.update();
      const g = ui.groups.find((g: Any) =>
        ui.outputText(g).startsWith("1\n2\n3\n")
      );
      ui.setFolded(g, true);
      return document.querySelectorAll("#terminal .dt-row[hidden]").length;
    });
    assertEquals(
      folded,
      29,
      "the window hides the output (one row summarised)",
    );

    // Copy: the selected row as text/plain and text/html with its colour.
    const box = await page.evaluate(() => {
      const row = Array.from(document.querySelectorAll(".dt-row")).find((r) =>
        (r.textContent ?? "").startsWith("RED plain")
      )!;
      const copied: { text: string; html: string }[] = [];
      document.addEventListener("copy", (e) => {
        copied.push({
          text: e.clipboardData?.getData("text/plain") ?? "",
          html: e.clipboardData?.getData("text/html") ?? "",
        });
      });
      Object.assign(globalThis, { copied });
      const r = row.getBoundingClientRect();
      const w = (globalThis as Any).domtermInspect.cell().width;
      return { y: r.top + r.height / 2, x0: r.left + 1, x1: r.left + 9 * w };
    });
    await page.mouse.move(box.x0, box.y);
    await page.mouse.down();
    await page.mouse.move(box.x1, box.y, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.press("Control+Shift+C");
    await page.waitForFunction(() => (globalThis as Any).copied.length > 0);
    const copied = await page.evaluate(() => (globalThis as Any).copied[0]);
    assertEquals(copied.text, "RED plain");
    assertMatch(
      copied.html,
      /^<pre style="[^"]*color:rgb\(213, 217, 224\);background-color:rgb\(28, 31, 38\);"><span style="color:rgb\(229, 112, 122\);">RED<\/span> plain<\/pre>$/,
    );

    // Save: Ctrl+Shift+S in the terminal gives a download (and nothing to the shell).
    await page.evaluate(() => (globalThis as Any).domtermInspect.focus());
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 15_000 }),
      page.keyboard.press("Control+Shift+S"),
    ]);
    assertMatch(download.suggestedFilename(), /^domterm-\d{8}-\d{6}\.html$/);
    const file = join(dir, "saved.html");
    await download.saveAs(file);
    await run("echo after-save", "after-save");
    const shotDir = Deno.env.get("DT_SCREENSHOT_DIR") ?? dir;
    await page.screenshot({ path: join(shotDir, "save-window.png") });

    // The file, from disk, in a fresh page of its own.
    const saved = await t.browser.newPage({
      viewport: { width: 800, height: 480 },
    });
    const requests: string[] = [];
    saved.on("request", (r) => requests.push(r.url()));
    const errors: string[] = [];
    saved.on("pageerror", (e) => errors.push(e.message));
    await saved.goto(pathToFileURL(file).href);
    await saved.waitForFunction(() =>
      Array.from(document.images).every((i) => i.complete)
    );
    const r = await saved.evaluate(() => {
      const lines = Array.from(
        document.querySelectorAll<HTMLElement>(".dt-line"),
      );
      const line = (start: string) =>
        lines.find((l) => (l.textContent ?? "").startsWith(start));
      const red = line("RED plain")!.querySelector("span")!;
      const imgs = Array.from(
        document.querySelectorAll<HTMLImageElement>("img.dt-img"),
      )
        .map((i) => ({
          type: i.src.slice(5, i.src.indexOf(";")),
          natural: [i.naturalWidth, i.naturalHeight],
          shown: [
            Math.round(i.getBoundingClientRect().width),
            Math.round(i.getBoundingClientRect().height),
          ],
        }));
      const handlers: string[] = [];
      for (const el of document.querySelectorAll("*")) {
        for (const a of el.attributes) {
          if (
            /^on/i.test(a.name) ||
            (/href|src|action/i.test(a.name) && !/^data:image\//.test(a.value))
          ) {
            handlers.push(`${el.localName} ${a.name}`);
          }
        }
      }
      return {
        title: document.title,
        bg: getComputedStyle(document.body).backgroundColor,
        fg: getComputedStyle(document.querySelector(".domterm")!).color,
        red: { text: red.textContent, color: getComputedStyle(red).color },
        imgs,
        frag: document.querySelector(".dt-embed-block .frag b")?.textContent,
        svg: document.querySelectorAll(".frag svg rect").length,
        inline: document.querySelector(".dt-embed-inline .ifrag")?.textContent,
        scripts: document.scripts.length,
        handlers,
        wide: line("漢字テスト")?.querySelectorAll(".dt-w").length,
        groups: Array.from(document.querySelectorAll("details.dt-group")).map(
          (d) => ({
            open: (d as HTMLDetailsElement).open,
            summary: (d.querySelector("summary")!.textContent ?? "").trim(),
          }),
        ),
      };
    });
    // The window's title: the command and the shell's directory (OSC 7).
    assertMatch(r.title, /^bash \u2014 \/.*domterm-e2e-save-/);
    assertEquals(r.bg, "rgb(28, 31, 38)", "the dark theme's background");
    assertEquals(r.fg, "rgb(213, 217, 224)");
    assertEquals(r.red, { text: "RED", color: "rgb(229, 112, 122)" });
    assertEquals(r.imgs, [
      { type: "image/png", natural: [40, 24], shown: [40, 24] },
      { type: "image/png", natural: [6, 12], shown: [6, 12] }, // the sixel
    ]);
    assertEquals(r.frag, "allowed");
    assertEquals(r.svg, 1);
    assertEquals(r.inline, "frag");
    assertEquals(r.scripts, 0);
    assertEquals(r.handlers, []);
    assertEquals(r.wide, 5);
    const seq = r.groups.find((g) => g.summary.startsWith("$ seq 30"));
    assert(seq, JSON.stringify(r.groups));
    assertEquals(seq.open, false, "folded in the window: folded in the file");
    assert(
      r.groups.filter((g) => g !== seq).every((g) => g.open),
      JSON.stringify(r.groups),
    );
    // Hover and click what the output tried to arm: nothing runs.
    await saved.hover(".ifrag");
    await saved.click("#user-content-js").catch(() => {});
    await saved.waitForTimeout(200);
    assertEquals(
      await saved.evaluate(() => (globalThis as Any).pwned ?? null),
      null,
      "no script from the output ran",
    );
    assertEquals(errors, []);
    assertEquals(
      requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:")),
      [],
      "the file loads nothing",
    );

    // The fold: the summary toggles the output lines.
    const shown = (text: string) =>
      saved.evaluate((want) => {
        const l = Array.from(document.querySelectorAll<HTMLElement>(".dt-line"))
          .find((e) => e.textContent === want);
        return l ? l.checkVisibility() : null;
      }, text);
    assertEquals(await shown("17"), false);
    const summary = saved.locator("details.dt-group summary", {
      hasText: "$ seq 30",
    });
    assertMatch(
      await summary.locator(".dt-fold-summary").evaluate((e) =>
        getComputedStyle(e, "::before").content
      ),
      /30 lines hidden/,
    );
    await saved.screenshot({
      path: join(shotDir, "save-file-folded.png"),
      fullPage: true,
    });
    await summary.click();
    assertEquals(await shown("17"), true);
    await saved.screenshot({
      path: join(shotDir, "save-file.png"),
      fullPage: true,
    });
    await summary.click();
    assertEquals(await shown("17"), false);

    // Lines re-wrap to the window: the numbers line is one block that
    // grows taller, never wider than the page, in a narrower window.
    const measure = () =>
      saved.evaluate(() => {
        const l = Array.from(document.querySelectorAll<HTMLElement>(".dt-line"))
          .find((e) => (e.textContent ?? "").startsWith("1 2 3 4 5"))!;
        const lh = parseFloat(getComputedStyle(l).lineHeight);
        return {
          text: l.textContent,
          rows: Math.round(l.getBoundingClientRect().height / lh),
          overflow: document.documentElement.scrollWidth >
            document.documentElement.clientWidth,
        };
      });
    const wide = await measure();
    const numbers = Array.from({ length: 60 }, (_, i) => i + 1).join(" ");
    assertEquals(wide.text, numbers, "the wrapped rows are one line");
    assertEquals(wide.rows, 2, "171 characters in an 800 px window");
    await saved.setViewportSize({ width: 300, height: 480 });
    const narrow = await measure();
    await saved.screenshot({ path: join(shotDir, "save-file-narrow.png") });
    assert(narrow.rows >= 5, `re-wrapped: ${JSON.stringify(narrow)}`);
    assertEquals(narrow.overflow, false);
    await saved.close();
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("e2e save as HTML: the XSS corpus printed as OSC 72 runs nothing in the saved file, even without its CSP", async () => {
  const js = await bundleForBrowser(
    new URL("./fixtures/save_html/harness.ts", import.meta.url),
  );
  const browser = await launchChromium();
  try {
    // Write the file as the window does.
    const writer = await browser.newPage();
    await writer.setContent("<!DOCTYPE html><title>writer</title>");
    await writer.addScriptTag({ content: js, type: "module" });
    await writer.waitForFunction(() => "savedFile" in globalThis);
    const leak = "http://leak.example/leak";
    const payloads = XSS_CORPUS.map((p) =>
      p.html.replaceAll("{LEAK_NOSCHEME}", leak.replace(/^http:/, ""))
        .replaceAll("{LEAK}", leak).replaceAll("{EXT}", "http://evil.example")
    );
    const html: string = await writer.evaluate(
      (p) => (globalThis as Any).savedFile(p),
      payloads,
    );
    assert(html.includes(SAVED_FILE_CSP));
    // Without the CSP, the sanitizer alone must hold (and with it, too).
    for (const csp of [false, true]) {
      const page = await browser.newPage();
      const requests: string[] = [];
      const at = "http://saved.test/session.html";
      page.on("request", (r) => {
        if (!r.url().startsWith("data:") && r.url() !== at) {
          requests.push(r.url());
        }
      });
      await page.addInitScript(() => {
        const hits: string[] = [];
        Object.defineProperty(globalThis, "__hits", { value: hits });
        Object.defineProperty(globalThis, "__xss", {
          get: () => () => hits.push("__xss()"),
          set: () => hits.push("__xss ="),
        });
        for (const name of ["alert", "confirm", "prompt", "print", "open"]) {
          (globalThis as Any)[name] = () => hits.push(`${name}()`);
        }
      });
      const doc = csp ? html : html.replace(
        /<meta http-equiv="Content-Security-Policy"[^>]*>\n/,
        "",
      );
      assertEquals(doc.includes("Content-Security-Policy"), csp);
      // Served from a page of its own (init scripts run on navigation).
      await page.route(
        "**/*",
        (route) =>
          route.request().url() === at
            ? route.fulfill({ contentType: "text/html", body: doc })
            : route.abort(),
      );
      await page.goto(at);
      // Hover and click every embed, open every <details> of the output.
      await page.evaluate(() => {
        for (
          const el of document.querySelectorAll<HTMLElement>(".dt-embed *")
        ) {
          for (const type of ["mouseover", "mouseenter", "focus", "click"]) {
            el.dispatchEvent(new Event(type, { bubbles: true }));
          }
          if (el instanceof HTMLDetailsElement) el.open = true;
        }
      });
      await page.waitForTimeout(300);
      const r = await page.evaluate(() => {
        const bad: string[] = [];
        for (const el of document.querySelectorAll(".dt-embed *")) {
          const tag = el.localName;
          if (
            /^(script|iframe|frame|object|embed|form|meta|link|base|style|foreignobject|animate|set)$/i
              .test(tag)
          ) bad.push(`<${tag}>`);
          for (const a of el.attributes) {
            if (/^on/i.test(a.name)) bad.push(`${tag} ${a.name}`);
            if (
              /href|src|action/i.test(a.name) &&
              /^\s*(javascript|vbscript|data:text)/i.test(a.value)
            ) bad.push(`${tag} ${a.name}=${a.value.slice(0, 40)}`);
          }
        }
        return {
          hits: (globalThis as Any).__hits as string[],
          bad,
          embeds: document.querySelectorAll(".dt-embed").length,
        };
      });
      assertEquals(r.hits, [], `script ran (csp: ${csp})`);
      assertEquals(r.bad, [], `csp: ${csp}`);
      assertEquals(r.embeds, 2 * payloads.length);
      assertEquals(requests, [], `requests (csp: ${csp})`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
});
