/**
 * The DOM renderer in a real headless Chromium: the harness under
 * fixtures/renderer/ is bundled for the browser and served with
 * static/domterm.css; tests drive it through `page.evaluate`.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { launchChromium } from "./chromium.ts";
import type { Harness } from "./fixtures/renderer/harness.ts";

declare global {
  // The harness, in the page.
  var dt: Harness;
}

const ROOT = new URL("../../", import.meta.url);
const FIXTURES = new URL("./fixtures/renderer/", import.meta.url);
const EMULATOR = new URL("core/emulator/terminal.ts", ROOT);

function exists(url: URL): boolean {
  try {
    return Deno.statSync(url).isFile;
  } catch {
    return false;
  }
}

/** True when the real emulator is there to drive. */
const HAVE_EMULATOR = exists(EMULATOR);

let bundled: Promise<string> | null = null;

/** Bundle the harness (plus the real emulator when present) once per run. */
function bundle(): Promise<string> {
  return bundled ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "dt-renderer-" });
    const entry = `${dir}/entry.ts`;
    let src = `import ${
      JSON.stringify(new URL("harness.ts", FIXTURES).href)
    };\n`;
    if (HAVE_EMULATOR) {
      src += `import { Terminal } from ${JSON.stringify(EMULATOR.href)};\n` +
        `(globalThis as unknown as { dt: { Terminal: unknown } }).dt.Terminal = Terminal;\n`;
    }
    await Deno.writeTextFile(entry, src);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform",
        "browser",
        "--config",
        new URL("deno.json", ROOT).pathname,
        "-o",
        `${dir}/harness.js`,
        entry,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(
        `deno bundle failed: ${new TextDecoder().decode(out.stderr)}`,
      );
    }
    const js = await Deno.readTextFile(`${dir}/harness.js`);
    await Deno.remove(dir, { recursive: true });
    return js;
  })();
}

interface Ctx {
  page: Page;
  browser: Browser;
}

/** Serve the harness page, open it in a fresh Chromium, run `fn`, close everything. */
async function withPage(
  fn: (c: Ctx) => Promise<void>,
  viewport = { width: 800, height: 480 },
  deviceScaleFactor = 1,
): Promise<void> {
  const js = await bundle();
  const html = await Deno.readTextFile(new URL("index.html", FIXTURES));
  const css = await Deno.readTextFile(new URL("static/domterm.css", ROOT));
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/") {
        return new Response(html, {
          headers: { "content-type": "text/html" },
        });
      }
      if (path === "/domterm.css") {
        return new Response(css, { headers: { "content-type": "text/css" } });
      }
      if (path === "/harness.js") {
        return new Response(js, {
          headers: { "content-type": "text/javascript" },
        });
      }
      return new Response("not found", { status: 404 });
    },
  );
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport, deviceScaleFactor });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${server.addr.port}/`);
    await page.waitForFunction(() => "dt" in globalThis);
    await fn({ page, browser });
    assertEquals(errors, [], "no errors in the page");
  } finally {
    await browser?.close();
    await server.shutdown();
  }
}

Deno.test("renderer: one row per line, style runs as spans, colours and attributes", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const C = dt.cell;
      const { t, r } = dt.fake(40, 6);
      t.exts.set(3, { underlineColor: C.rgbColor(10, 200, 30), link: null });
      let x = t.put(0, 0, "plain ");
      x = t.put(0, x, "red", C.paletteColor(1));
      x = t.put(0, x, "RED", C.paletteColor(1));
      x = t.put(0, x, " <&> ");
      x = t.put(0, x, "tc", C.rgbColor(1, 2, 3), C.rgbColor(250, 240, 230));
      t.put(0, x, "c196", C.paletteColor(196), C.paletteColor(244));
      x = t.put(1, 0, "bold ", 0, 0, C.A_BOLD);
      x = t.put(1, x, "ital ", 0, 0, C.A_ITALIC);
      x = t.put(1, x, "faint ", 0, 0, C.A_FAINT);
      x = t.put(1, x, "inv ", 0, 0, C.A_INVERSE);
      x = t.put(1, x, "hid ", 0, 0, C.A_INVISIBLE);
      t.put(1, x, "blink", 0, 0, C.A_BLINK);
      x = 0;
      for (let u = 1; u <= 5; u++) {
        x = t.put(2, x, `u${u} `, 0, 0, u << C.A_UNDERLINE_SHIFT);
      }
      x = t.put(
        2,
        x,
        "ulc ",
        0,
        0,
        (1 << C.A_UNDERLINE_SHIFT) | (3 << C.A_EXT_SHIFT),
      );
      x = t.put(2, x, "strike ", 0, 0, C.A_STRIKE);
      t.put(
        2,
        x,
        "over",
        0,
        0,
        C.A_OVERLINE | C.A_STRIKE | (1 << C.A_UNDERLINE_SHIFT),
      );
      t.put(3, 5, "mid");
      r.setFocused(true);
      t.cursorY = 5;
      r.render();
      const rows = dt.rows();
      const cs = (text: string, row = 0) =>
        getComputedStyle(dt.find(rows[row], text));
      const rootCs = getComputedStyle(dt.root());
      const out = {
        count: rows.length,
        texts: dt.texts(),
        row0Spans: rows[0].querySelectorAll("span").length,
        plainIsBare: dt.find(rows[0], "plain") === rows[0],
        red: cs("redRED").color,
        palette1: dt.color("var(--dt-color-1)"),
        truecolor: [cs("tc").color, cs("tc").backgroundColor],
        c256: [cs("c196").color, cs("c196").backgroundColor],
        bold: cs("bold", 1).fontWeight,
        italic: cs("ital", 1).fontStyle,
        faint: cs("faint", 1).opacity,
        inverse: [cs("inv", 1).color, cs("inv", 1).backgroundColor],
        defaults: [rootCs.color, rootCs.backgroundColor],
        hidden: cs("hid", 1).color,
        blink: cs("blink", 1).animationName,
        underline: [1, 2, 3, 4, 5].map((u) => {
          const s = cs(`u${u}`, 2);
          return `${s.textDecorationLine} ${s.textDecorationStyle}`;
        }),
        ulColor: cs("ulc", 2).textDecorationColor,
        strike: cs("strike", 2).textDecorationLine,
        over: cs("over", 2).textDecorationLine,
        rowWidth: rows[3].getBoundingClientRect().width,
        cell: r.measureCell(),
        html0: rows[0].innerHTML,
      };
      // OSC 4 palette change: old output follows.
      t.palette.set(1, "#123456");
      r.render();
      const overridden = cs("redRED").color;
      // DECSCNM: default colours swap.
      t.reverseVideo = true;
      r.render();
      const reversed = [
        getComputedStyle(dt.root()).color,
        getComputedStyle(dt.root()).backgroundColor,
      ];
      return { ...out, overridden, reversed };
    });
    assertEquals(r.count, 6);
    assertEquals(r.texts, [
      "plain redRED <&> tcc196",
      "bold ital faint inv hid blink",
      "u1 u2 u3 u4 u5 ulc strike over",
      "     mid",
      "",
      "",
    ]);
    // plain (bare), redRED (one merged run), " <&> " bare, tc, c196.
    assertEquals(r.row0Spans, 3, r.html0);
    assert(r.plainIsBare, "default-style text needs no span");
    assertEquals(r.red, r.palette1);
    assert(r.red !== r.defaults[0]);
    assertEquals(r.truecolor, ["rgb(1, 2, 3)", "rgb(250, 240, 230)"]);
    assertEquals(r.c256, ["rgb(255, 0, 0)", "rgb(128, 128, 128)"]);
    assertEquals(r.bold, "700");
    assertEquals(r.italic, "italic");
    assert(Number(r.faint) < 1, `faint opacity ${r.faint}`);
    assertEquals(
      r.inverse,
      [r.defaults[1], r.defaults[0]],
      "inverse swaps the default colours",
    );
    assertEquals(r.hidden, "rgba(0, 0, 0, 0)");
    assertEquals(r.blink, "dt-blink");
    assertEquals(r.underline, [
      "underline solid",
      "underline double",
      "underline wavy",
      "underline dotted",
      "underline dashed",
    ]);
    assertEquals(r.ulColor, "rgb(10, 200, 30)");
    assertEquals(r.strike, "line-through");
    assertEquals(r.over, "underline overline line-through");
    assert(
      Math.abs(r.rowWidth - 40 * r.cell.width) < 0.01,
      `row width ${r.rowWidth}`,
    );
    assertEquals(r.overridden, "rgb(18, 52, 86)");
    assertEquals(r.reversed, [r.defaults[1], r.defaults[0]]);
  });
});

Deno.test("renderer: wide characters take two cells, clusters render, grid stays aligned", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const C = dt.cell;
      const { t, r } = dt.fake(20, 3);
      t.put(0, 0, "a世界b");
      t.put(1, 0, "x", C.paletteColor(2));
      t.put(1, 1, "中", C.paletteColor(2));
      t.put(1, 3, "y", C.paletteColor(2));
      const line = t.screen(2);
      line.set(0, 0x65, 0, 0, 0);
      line.setCluster(0, "e\u0301");
      line.set(1, 0x7a, 0, 0, 0);
      r.render();
      const cell = r.measureCell();
      const rows = dt.rows();
      const rowLeft = rows[0].getBoundingClientRect().left;
      const wides = Array.from(rows[0].querySelectorAll(".dt-w")).map((e) =>
        e.getBoundingClientRect().width
      );
      return {
        cell,
        texts: dt.texts(),
        wides,
        bX: dt.textRect(rows[0], "b").left - rowLeft,
        yX: dt.textRect(rows[1], "y").left - rowLeft,
        zX: dt.textRect(rows[2], "z").left - rowLeft,
      };
    });
    assertEquals(r.texts, ["a世界b", "x中y", "e\u0301z"]);
    assertEquals(r.wides.length, 2);
    // Layout positions are multiples of 1/64 px.
    for (const w of r.wides) {
      assert(Math.abs(w - 2 * r.cell.width) < 0.05, `wide ${w}`);
    }
    assert(Math.abs(r.bX - 5 * r.cell.width) < 0.5, `b at ${r.bX}`);
    assert(Math.abs(r.yX - 3 * r.cell.width) < 0.5, `y at ${r.yX}`);
    assert(Math.abs(r.zX - 1 * r.cell.width) < 0.5, `z at ${r.zX}`);
  });
});

Deno.test("renderer: only changed screen rows are rewritten", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.fake(20, 5);
      for (let y = 0; y < 5; y++) t.put(y, 0, `line ${y}`);
      t.cursorY = 4;
      r.render();
      const rows = dt.rows();
      const firsts = rows.map((e) => e.firstChild);
      const changed = new Set<Node>();
      const mo = new MutationObserver((ms) => {
        for (const m of ms) changed.add(m.target);
      });
      mo.observe(dt.root(), {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
      const count = () => {
        for (const m of mo.takeRecords()) changed.add(m.target);
        const n = rows.filter((e) => changed.has(e)).length;
        changed.clear();
        return n;
      };
      r.render();
      const idle = count();
      t.put(2, 0, "LINE");
      const dirtyBefore = t.screen(2).dirty;
      r.render();
      const one = count();
      const dirtyAfter = t.screen(2).dirty;
      // A replaced Line object (not dirty-flagged) is noticed by identity.
      const fresh = new dt.Line(20);
      fresh.dirty = false;
      t.normal.lines[1] = fresh;
      r.render();
      const replaced = count();
      mo.disconnect();
      return {
        idle,
        one,
        replaced,
        dirtyBefore,
        dirtyAfter,
        kept: rows.map((e, i) => e.firstChild === firsts[i]),
        same: dt.rows().every((e, i) => e === rows[i]),
        texts: dt.texts(),
      };
    });
    assertEquals(r.idle, 0, "nothing changed, nothing written");
    assertEquals(r.one, 1, "one dirty line, one row rewritten");
    assertEquals([r.dirtyBefore, r.dirtyAfter], [true, false]);
    assertEquals(r.replaced, 1);
    assertEquals(r.kept, [true, false, false, true, true]);
    assert(r.same, "row elements are kept");
    assertEquals(r.texts, ["line 0", "", "LINE 2", "line 3", "line 4"]);
  });
});

Deno.test("renderer: lines scrolling into history append rows; trimmed rows go", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.fake(20, 4);
      t.scrollback = 10;
      t.print(["a0", "a1", "a2"]);
      r.render();
      const n1 = dt.rows().length;
      const history = dt.rows().slice(0, 3);
      const historyFirsts = history.map((e) => e.firstChild);
      let added = 0;
      const touched = new Set<Node>();
      const mo = new MutationObserver((ms) => {
        for (const m of ms) {
          touched.add(m.target);
          if (m.target === dt.rows()[0]?.parentElement) {
            added += m.addedNodes.length;
          }
        }
      });
      mo.observe(dt.root(), {
        subtree: true,
        childList: true,
        characterData: true,
      });
      t.print(["b0", "b1"]);
      r.render();
      mo.takeRecords().forEach((m) => touched.add(m.target));
      const historyUntouched = history.every((e, i) =>
        !touched.has(e) && e.firstChild === historyFirsts[i] && e.isConnected
      );
      const n2 = dt.rows().length;
      const texts2 = dt.texts();
      // Past the scrollback limit: the oldest rows leave.
      t.print(Array.from({ length: 8 }, (_, i) => `c${i}`));
      r.render();
      const n3 = dt.rows().length;
      const texts3 = dt.texts();
      const firstGone = !history[0].isConnected;
      // Far more lines in one frame than the scrollback holds.
      const container = dt.rows()[0].parentElement!;
      const created: Node[] = [];
      const mo2 = new MutationObserver((ms) => {
        for (const m of ms) {
          if (m.target === container) created.push(...m.addedNodes);
        }
      });
      mo2.observe(container, { childList: true });
      t.print(Array.from({ length: 500 }, (_, i) => `d${i}`));
      r.render();
      for (const m of mo2.takeRecords()) created.push(...m.addedNodes);
      mo.disconnect();
      mo2.disconnect();
      return {
        n1,
        n2,
        n3,
        texts2,
        texts3,
        historyUntouched,
        firstGone,
        trimmed: t.normal.trimmed,
        created: created.length,
        n4: dt.rows().length,
        texts4: dt.texts().slice(0, 2).concat(dt.texts().slice(-3)),
        added,
      };
    });
    assertEquals(r.n1, 7);
    assert(r.historyUntouched, "history rows are never rewritten");
    assertEquals(r.n2, 9);
    assertEquals(r.texts2, ["", "", "", "a0", "a1", "a2", "b0", "b1", ""]);
    assertEquals(r.n3, 14, "rows + scrollback");
    assertEquals(r.texts3.slice(-6), ["c3", "c4", "c5", "c6", "c7", ""]);
    assert(r.firstGone, "a trimmed row leaves the DOM");
    assertEquals(r.created, 14, "only surviving lines get rows");
    assertEquals(r.n4, 14);
    assertEquals(r.texts4, ["d487", "d488", "d498", "d499", ""]);
  });
});

Deno.test("renderer: cursor sits on its cell, hides, covers wide characters", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(async () => {
      const { t, r } = dt.fake(30, 5);
      t.print(Array.from({ length: 40 }, (_, i) => `history ${i}`));
      t.put(2, 0, "ab世c");
      t.cursorX = 1;
      t.cursorY = 2;
      r.setFocused(true);
      r.render();
      const cell = r.measureCell();
      const rows = dt.rows();
      const screen0 = rows[rows.length - 5].getBoundingClientRect();
      const cur = () => dt.root().querySelector<HTMLElement>(".dt-cursor");
      const at = () => {
        const c = cur()!.getBoundingClientRect();
        return {
          x: c.left - screen0.left,
          y: c.top - screen0.top,
          w: c.width,
          h: c.height,
        };
      };
      const vp = dt.root().querySelector(".dt-viewport")!;
      const scrolled = vp.scrollTop > 0;
      const p1 = at();
      const before = getComputedStyle(cur()!, "::before").content;
      const rect = r.cursorRect();
      // On the right half of a wide character: covers the whole character.
      t.cursorX = 3;
      r.render();
      const p2 = at();
      const wideChar = getComputedStyle(cur()!, "::before").content;
      // Unfocused: hollow.
      r.setFocused(false);
      const hollowBg = getComputedStyle(cur()!).backgroundColor;
      r.setFocused(true);
      const solidBg = getComputedStyle(cur()!).backgroundColor;
      t.cursorStyle = "bar";
      t.cursorBlink = true;
      r.render();
      const barClass = cur()!.className;
      const anim = getComputedStyle(cur()!).animationName;
      t.cursorVisible = false;
      r.render();
      const hidden = cur() === null;
      t.cursorVisible = true;
      t.cursorX = 0;
      t.cursorY = 4;
      r.render();
      // Scrolled away: the cursor stays on its row.
      vp.scrollTop = 0;
      await dt.frames(2);
      const row4 = rows[rows.length - 1].getBoundingClientRect();
      const c4 = cur()!.getBoundingClientRect();
      return {
        cell,
        scrolled,
        p1,
        p2,
        before,
        rect,
        wideChar,
        hollowBg,
        solidBg,
        barClass,
        anim,
        hidden,
        row4: [c4.left - row4.left, c4.top - row4.top],
      };
    });
    const { width: cw, height: ch } = r.cell;
    const near = (a: number, b: number) => Math.abs(a - b) < 0.5;
    assert(r.scrolled, "the viewport followed the output");
    assert(
      near(r.p1.x, cw) && near(r.p1.y, 2 * ch),
      `cursor at ${JSON.stringify(r.p1)}`,
    );
    assert(
      near(r.p1.w, cw) && near(r.p1.h, ch),
      `cursor size ${JSON.stringify(r.p1)}`,
    );
    assertEquals(
      r.before,
      '"b"',
      "a block cursor shows the character under it",
    );
    assert(near(r.rect.width, cw) && near(r.rect.height, ch));
    assert(
      near(r.p2.x, 2 * cw) && near(r.p2.w, 2 * cw),
      `wide cursor ${JSON.stringify(r.p2)}`,
    );
    assertEquals(r.wideChar, '"世"');
    assertEquals(r.hollowBg, "rgba(0, 0, 0, 0)");
    assert(r.solidBg !== r.hollowBg);
    assert(
      r.barClass.includes("dt-cursor-bar") &&
        r.barClass.includes("dt-cursor-blink"),
    );
    assertEquals(r.anim, "dt-cursor-blink");
    assert(r.hidden, "cursorVisible=false hides the cursor");
    assert(
      near(r.row4[0], 0) && near(r.row4[1], 0),
      `cursor on row 4: ${r.row4}`,
    );
  });
});

Deno.test("renderer: cursorRect is the cursor cell in client coordinates", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.fake(30, 5);
      t.cursorX = 7;
      t.cursorY = 3;
      r.render();
      const rect = r.cursorRect();
      const c = dt.root().querySelector(".dt-cursor")!.getBoundingClientRect();
      return {
        rect,
        c: { left: c.left, top: c.top, width: c.width, height: c.height },
      };
    });
    for (const k of ["left", "top", "width", "height"] as const) {
      assert(
        Math.abs(r.rect[k] - r.c[k]) < 0.5,
        `${k}: ${r.rect[k]} vs ${r.c[k]}`,
      );
    }
  });
});

Deno.test("renderer: the alternate screen covers the normal viewport, which stays intact", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.fake(20, 4);
      t.print(Array.from({ length: 30 }, (_, i) => `n${i}`));
      r.render();
      const vp = dt.root().querySelector<HTMLElement>(".dt-viewport")!;
      const alt = dt.root().querySelector<HTMLElement>(".dt-alt")!;
      const normalRows = dt.rows();
      const scroll = vp.scrollTop;
      t.altActive = true;
      t.put(0, 0, "ALT SCREEN");
      t.cursorY = 1;
      r.render();
      const inAlt = {
        altVisible: getComputedStyle(alt).display !== "none",
        vpVisibility: getComputedStyle(vp).visibility,
        altTexts: dt.texts(dt.altRows()),
        normalSame: dt.rows().every((e, i) => e === normalRows[i]) &&
          dt.rows().length === normalRows.length,
        cursorInAlt: alt.contains(dt.root().querySelector(".dt-cursor")),
      };
      t.altActive = false;
      r.render();
      return {
        inAlt,
        altHidden: getComputedStyle(alt).display === "none",
        vpVisibility: getComputedStyle(vp).visibility,
        normalSame: dt.rows().every((e, i) => e === normalRows[i]),
        scrollKept: vp.scrollTop === scroll,
        cursorInNormal: vp.contains(dt.root().querySelector(".dt-cursor")),
      };
    });
    assert(r.inAlt.altVisible);
    assertEquals(r.inAlt.vpVisibility, "hidden");
    assertEquals(r.inAlt.altTexts, ["ALT SCREEN", "", "", ""]);
    assert(
      r.inAlt.normalSame,
      "the normal rows are kept while the alternate screen shows",
    );
    assert(r.inAlt.cursorInAlt);
    assert(r.altHidden);
    assertEquals(r.vpVisibility, "visible");
    assert(r.normalSame && r.scrollKept && r.cursorInNormal);
  });
});

Deno.test("renderer: fit() gives the cols x rows that fit the element", async () => {
  await withPage(async ({ page }) => {
    const fitNow = () =>
      page.evaluate(() => {
        const r =
          (globalThis as unknown as { R: InstanceType<typeof dt.Renderer> }).R;
        const vp = dt.root().querySelector<HTMLElement>(".dt-viewport")!;
        const rows = dt.root().querySelector<HTMLElement>(".dt-rows")!;
        const cs = getComputedStyle(vp);
        return {
          fit: r.fit(),
          cell: r.measureCell(),
          w: rows.clientWidth,
          h: vp.clientHeight - parseFloat(cs.paddingTop) -
            parseFloat(cs.paddingBottom),
        };
      });
    await page.evaluate(() => {
      Object.assign(globalThis, { R: dt.fake(10, 3).r });
    });
    const a = await fitNow();
    const check = (x: typeof a) => {
      assert(x.fit.cols * x.cell.width <= x.w + 0.01, JSON.stringify(x));
      assert((x.fit.cols + 1) * x.cell.width > x.w, JSON.stringify(x));
      assert(x.fit.rows * x.cell.height <= x.h + 0.01, JSON.stringify(x));
      assert((x.fit.rows + 1) * x.cell.height > x.h, JSON.stringify(x));
    };
    check(a);
    assert(
      a.fit.cols > 60 && a.fit.cols < 120,
      `800px wide: ${a.fit.cols} cols`,
    );
    assert(
      a.fit.rows > 15 && a.fit.rows < 40,
      `480px high: ${a.fit.rows} rows`,
    );
    await page.setViewportSize({ width: 1000, height: 600 });
    const b = await fitNow();
    check(b);
    assert(b.fit.cols > a.fit.cols && b.fit.rows > a.fit.rows);
    const tiny = await page.evaluate(() => {
      dt.root().style.width = "3px";
      dt.root().style.height = "3px";
      return (globalThis as unknown as { R: InstanceType<typeof dt.Renderer> })
        .R.fit();
    });
    assertEquals(tiny, { cols: 1, rows: 1 });
  });
});

Deno.test("renderer: the viewport follows output unless scrolled up", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(async () => {
      const { t, r } = dt.fake(20, 5);
      const vp = dt.root().querySelector<HTMLElement>(".dt-viewport")!;
      const atBottom = () =>
        vp.scrollHeight - vp.scrollTop - vp.clientHeight < 2;
      t.print(Array.from({ length: 50 }, (_, i) => `a${i}`));
      r.render();
      const first = atBottom();
      vp.scrollTop = 100;
      await dt.frames(2);
      t.print(Array.from({ length: 20 }, (_, i) => `b${i}`));
      r.render();
      const stayed = vp.scrollTop === 100 && !atBottom();
      vp.scrollTop = vp.scrollHeight;
      await dt.frames(2);
      t.print(Array.from({ length: 20 }, (_, i) => `c${i}`));
      r.render();
      return { first, stayed, followsAgain: atBottom() };
    });
    assertEquals(r, { first: true, stayed: true, followsAgain: true });
  });
});

Deno.test("renderer: schedule() coalesces into one render per frame", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(async () => {
      const { t, r } = dt.fake(20, 3);
      await dt.frames(3);
      let renders = 0;
      const orig = r.render.bind(r);
      r.render = () => {
        renders++;
        orig();
      };
      for (let i = 0; i < 50; i++) {
        t.put(0, 0, `n${i}`);
        r.schedule();
      }
      const before = dt.texts()[0];
      await dt.frames(3);
      return { renders, before, after: dt.texts()[0] };
    });
    assertEquals(r, { renders: 1, before: "", after: "n49" });
  });
});

Deno.test("renderer: selected rows copy as lines of text", async () => {
  await withPage(async ({ page }) => {
    const text = await page.evaluate(() => {
      const { t, r } = dt.fake(20, 4);
      t.put(0, 0, "first", dt.cell.paletteColor(3));
      t.put(0, 6, "line");
      t.put(2, 0, "x中y");
      t.cursorX = 2;
      t.cursorY = 0;
      r.setFocused(true);
      r.render();
      const sel = getSelection()!;
      sel.selectAllChildren(dt.root().querySelector(".dt-rows")!);
      return sel.toString();
    });
    // A blank row between keeps its line (trailing blank rows may add a newline).
    assertEquals(text.replace(/\n+$/, ""), "first line\n\nx中y");
  });
});

Deno.test("renderer: dispose removes its DOM", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { r } = dt.fake(20, 3);
      r.dispose();
      return { children: dt.root().children.length, cls: dt.root().className };
    });
    assertEquals(r, { children: 0, cls: "" });
  });
});

Deno.test("renderer: sample screen (screenshot to $DT_SCREENSHOT)", async () => {
  await withPage(
    async ({ page }) => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.evaluate(() => {
        const C = dt.cell;
        const P = C.paletteColor;
        const { t, r } = dt.fake(90, 22);
        const U = (n: number) => n << C.A_UNDERLINE_SHIFT;
        t.exts.set(1, { underlineColor: P(1), link: null });
        let y = 0;
        const prompt = (cmd: string) => {
          let x = t.put(y, 0, "ana@hostname", P(2), 0, C.A_BOLD);
          x = t.put(y, x, ":");
          x = t.put(y, x, "~/src/domterm", P(4), 0, C.A_BOLD);
          x = t.put(y, x, "$ ");
          return t.put(y++, x, cmd);
        };
        prompt("ls --color");
        let x = t.put(y, 0, "client", P(4), 0, C.A_BOLD);
        x = t.put(y, x + 2, "core", P(4), 0, C.A_BOLD);
        x = t.put(y, x + 2, "main.ts");
        x = t.put(y, x + 2, "build.sh", P(2), 0, C.A_BOLD);
        x = t.put(y, x + 2, "README.md");
        t.put(y++, x + 2, "link", P(6), 0, C.A_BOLD);
        prompt("git diff --stat");
        x = t.put(y, 0, " client/renderer.ts | 42 ");
        x = t.put(y, x, "+++++++++++++", P(2));
        t.put(y++, x, "---", P(1));
        y++;
        x = t.put(y, 0, "bold", 0, 0, C.A_BOLD);
        x = t.put(y, x + 1, "faint", 0, 0, C.A_FAINT);
        x = t.put(y, x + 1, "italic", 0, 0, C.A_ITALIC);
        x = t.put(y, x + 1, "underline", 0, 0, U(1));
        x = t.put(y, x + 1, "double", 0, 0, U(2));
        x = t.put(y, x + 1, "curly", 0, 0, U(3) | (1 << C.A_EXT_SHIFT));
        x = t.put(y, x + 1, "dotted", 0, 0, U(4));
        x = t.put(y, x + 1, "dashed", 0, 0, U(5));
        x = t.put(y, x + 1, "strike", 0, 0, C.A_STRIKE);
        x = t.put(y, x + 1, "overline", 0, 0, C.A_OVERLINE);
        t.put(y++, x + 1, "inverse", 0, 0, C.A_INVERSE);
        x = 0;
        for (let i = 0; i < 16; i++) {
          x = t.put(y, x, ` ${i.toString(16)} `, i === 0 ? 0 : P(i));
        }
        y++;
        x = 0;
        for (let i = 0; i < 16; i++) {
          x = t.put(y, x, "   ", 0, P(i));
        }
        y++;
        for (let i = 16; i < 232; i += 3) {
          t.put(y, (i - 16) / 3, " ", 0, P(i));
        }
        y++;
        for (let i = 0; i < 90; i++) {
          const v = Math.round((i / 89) * 255);
          t.put(
            y,
            i,
            "▀",
            C.rgbColor(255 - v, v, 128),
            C.rgbColor(v, 64, 255 - v),
          );
        }
        y++;
        t.put(
          y++,
          0,
          "CJK: 日本語のテキスト 中文字符 한국어  emoji: 🎉✨  box: ┌─┬─┐ │ ├─┼─┤ └─┴─┘",
        );
        t.put(
          y++,
          0,
          "  error: cannot find value `rendr` in this scope",
          P(1),
          0,
          C.A_BOLD,
        );
        x = t.put(y, 0, "  --> ", P(4), 0, C.A_BOLD);
        t.put(y++, x, "client/renderer.ts:12:5");
        t.put(y++, 0, " WARN ", P(0), P(3), C.A_BOLD);
        t.cursorY = y;
        t.cursorX = prompt("echo hello");
        y--;
        t.cursorY = y;
        r.setFocused(true);
        r.render();
      });
      const path = Deno.env.get("DT_SCREENSHOT");
      if (path) await page.screenshot({ path });
      const zoom = Deno.env.get("DT_ZOOM");
      if (zoom) {
        await page.screenshot({
          path: zoom,
          clip: { x: 0, y: 85, width: 820, height: 120 },
        });
      }
    },
    { width: 820, height: 440 },
    Deno.env.get("DT_ZOOM") ? 3 : 1,
  );
});

Deno.test({
  name: "renderer: bench innerHTML vs fragment (DT_BENCH=1)",
  ignore: !Deno.env.get("DT_BENCH"),
  fn: async () => {
    await withPage(async ({ page }) => {
      const res = await page.evaluate(() => {
        // deno-lint-ignore no-explicit-any
        const dt = (globalThis as any).dt;
        const C = dt.cell;
        const cols = 120, n = 2000;
        const t = new dt.FakeTerm(cols, n);
        const words = [
          "ls",
          "-la",
          "drwxr-xr-x",
          "README.md",
          "src/",
          "2024-01-01",
          "12:34",
        ];
        for (let y = 0; y < n; y++) {
          let x = 0, k = y;
          while (x < cols - 12) {
            const w = words[k++ % words.length];
            const fg = k % 3 === 0
              ? C.paletteColor(k % 8)
              : k % 5 === 0
              ? C.rgbColor(k, 2 * k, 3 * k)
              : 0;
            x = t.put(y, x, w + " ", fg, 0, k % 4 === 0 ? C.A_BOLD : 0);
          }
        }
        const lines = t.normal.lines;
        const root = document.getElementById("terminal")!;
        const r = new dt.Renderer(root, new dt.FakeTerm(cols, 2));
        r.render();
        const rowsEl = root.querySelector(".dt-rows")!;
        // Reach the painter through a fresh import-free copy: use the renderer's HTML.
        const probe = new dt.FakeTerm(cols, 1);
        const html: string[] = [];
        const tHtml0 = performance.now();
        for (const l of lines) {
          probe.normal.lines[0] = l;
          l.dirty = true;
          r.render();
          html.push(root.querySelector(".dt-row")!.innerHTML);
        }
        const out: Record<string, number> = {};
        const time = (name: string, f: () => void) => {
          let build = Infinity, all = Infinity;
          for (let rep = 0; rep < 5; rep++) {
            rowsEl.textContent = "";
            document.body.offsetHeight;
            const t0 = performance.now();
            f();
            build = Math.min(build, performance.now() - t0);
            document.body.offsetHeight;
            all = Math.min(all, performance.now() - t0);
          }
          out[name + " build"] = build;
          out[name + " +layout"] = all;
        };
        void tHtml0;
        // Build-from-Line cost for HTML strings (painter only).
        let best = Infinity;
        for (let rep = 0; rep < 5; rep++) {
          const t2 = new dt.FakeTerm(cols, n);
          t2.normal.lines = lines;
          for (const l of lines) l.dirty = true;
          const r2root = document.createElement("div");
          document.body.appendChild(r2root);
          const painterT0 = performance.now();
          const r2 = new dt.Renderer(r2root, t2);
          r2.render();
          document.body.offsetHeight;
          best = Math.min(best, performance.now() - painterT0);
          r2.dispose();
          r2root.remove();
        }
        out["renderer full render (2000 rows) +layout"] = best;
        time("insertAdjacentHTML (one string)", () => {
          let s = "";
          for (const h of html) s += '<div class="dt-row">' + h + "</div>";
          rowsEl.insertAdjacentHTML("beforeend", s);
        });
        time("per-row div + innerHTML", () => {
          for (const h of html) {
            const d = document.createElement("div");
            d.className = "dt-row";
            d.innerHTML = h;
            rowsEl.appendChild(d);
          }
        });
        time("DocumentFragment (createElement/Text)", () => {
          const frag = document.createDocumentFragment();
          for (const l of lines) {
            const d = document.createElement("div");
            d.className = "dt-row";
            let run = "", rf = 0, ra = 0;
            const flush = () => {
              if (run === "") return;
              if (rf === 0 && ra === 0) {
                d.appendChild(document.createTextNode(run));
              } else {
                const s = document.createElement("span");
                if (ra & C.A_BOLD) s.className = "dt-bold";
                if (rf) {
                  s.style.color = (rf >>> 24) === 1
                    ? `var(--dt-color-${rf & 255})`
                    : `rgb(${(rf >> 16) & 255},${(rf >> 8) & 255},${rf & 255})`;
                }
                s.textContent = run;
                d.appendChild(s);
              }
              run = "";
            };
            for (let x = 0; x < l.cols; x++) {
              const f = l.fg(x), a = l.attr(x);
              if (f !== rf || a !== ra) {
                flush();
                rf = f;
                ra = a;
              }
              run += l.text(x);
            }
            flush();
            frag.appendChild(d);
          }
          rowsEl.appendChild(frag);
        });
        // Screen-row rewrite: 50 rows x 100 frames, innerHTML vs replaceChildren(fragment).
        rowsEl.textContent = "";
        rowsEl.insertAdjacentHTML(
          "beforeend",
          '<div class="dt-row"></div>'.repeat(50),
        );
        const rowEls = Array.from(rowsEl.children) as HTMLElement[];
        let t0 = performance.now();
        for (let f = 0; f < 100; f++) {
          for (let i = 0; i < 50; i++) {
            rowEls[i].innerHTML = html[(f * 50 + i) % n];
          }
          document.body.offsetHeight;
        }
        out["rewrite 50 rows x100 innerHTML +layout"] = performance.now() - t0;
        const tpl = document.createElement("template");
        t0 = performance.now();
        for (let f = 0; f < 100; f++) {
          for (let i = 0; i < 50; i++) {
            tpl.innerHTML = html[(f * 50 + i) % n];
            rowEls[i].replaceChildren(tpl.content);
          }
          document.body.offsetHeight;
        }
        out["rewrite 50 rows x100 template+replaceChildren +layout"] =
          performance.now() - t0;
        return out;
      });
      for (const [k, v] of Object.entries(res)) {
        console.log(`${k}: ${v.toFixed(1)} ms`);
      }
    });
  },
});
