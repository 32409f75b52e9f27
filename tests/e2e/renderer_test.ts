/**
 * The DOM renderer in a real headless Chromium: the harness under
 * fixtures/renderer/ is bundled for the browser and served with
 * static/domterm.css; tests drive it through `page.evaluate`
 * (renderer_page.ts). The frame-spacing test, which counts frames in a
 * time, is in renderer_frames_test.ts (run alone).
 */
import { assert, assertEquals } from "../assert.ts";
import { withPage } from "./renderer_page.ts";

Deno.test("renderer: one row per line, style runs as spans, colours and attributes", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.real(40, 6);
      t.write(
        "plain \x1b[31mred\x1b[31mRED\x1b[0m <&> " +
          "\x1b[38;2;1;2;3;48;2;250;240;230mtc\x1b[38;5;196;48;5;244mc196\x1b[0m\r\n",
      );
      t.write(
        "\x1b[1mbold\x1b[0m \x1b[3mital\x1b[0m \x1b[2mfaint\x1b[0m \x1b[7minv\x1b[0m " +
          "\x1b[8mhid\x1b[0m \x1b[5mblink\x1b[0m\r\n",
      );
      t.write(
        "\x1b[4mu1\x1b[0m \x1b[4:2mu2\x1b[0m \x1b[4:3mu3\x1b[0m \x1b[4:4mu4\x1b[0m " +
          "\x1b[4:5mu5\x1b[0m \x1b[4;58:2::10:200:30mulc\x1b[0m \x1b[9mstrike\x1b[0m " +
          "\x1b[4;9;53mover\x1b[0m",
      );
      t.write("\x1b[4;6Hmid");
      r.setFocused(true);
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
        overShadow: cs("over", 2).boxShadow,
        rowWidth: rows[3].getBoundingClientRect().width,
        cell: r.measureCell(),
        html0: rows[0].innerHTML,
      };
      // OSC 4 palette change: old output follows.
      t.write("\x1b]4;1;rgb:12/34/56\x07");
      r.render();
      const overridden = cs("redRED").color;
      // DECSCNM: default colours swap.
      t.write("\x1b[?5h");
      r.render();
      const rev = getComputedStyle(dt.root());
      const reversed = [rev.color, rev.backgroundColor];
      // OSC 11: the default background changes.
      t.write("\x1b[?5l\x1b]11;rgb:10/20/30\x07");
      r.render();
      const osc11 = getComputedStyle(dt.root()).backgroundColor;
      return { ...out, overridden, reversed, osc11 };
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
    // The overline is drawn as an inset shadow inside the cell, not as a
    // text decoration (tests/e2e/draw_test.ts).
    assertEquals(r.over, "underline line-through");
    assert(/inset/.test(r.overShadow), r.overShadow);
    assert(
      Math.abs(r.rowWidth - 40 * r.cell.width) < 0.05,
      `row width ${r.rowWidth}`,
    );
    assertEquals(r.overridden, "rgb(18, 52, 86)");
    assertEquals(r.reversed, [r.defaults[1], r.defaults[0]]);
    assertEquals(r.osc11, "rgb(16, 32, 48)");
  });
});

Deno.test("renderer: wide characters take two cells, clusters render, grid stays aligned", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.real(20, 3);
      t.write("a世界b\r\n\x1b[32mx中y\x1b[0m\r\ne\u0301z");
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
      const { t, r } = dt.real(20, 5);
      t.write("line 0\r\nline 1\r\nline 2\r\nline 3\r\nline 4");
      r.render();
      const rows = dt.rows();
      const firsts = rows.map((e) => e.firstChild);
      const mo = new MutationObserver(() => {});
      mo.observe(dt.root(), {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
      r.render();
      const idle = mo.takeRecords().length;
      t.write("\x1b[3;1HLINE");
      const dirtyBefore = t.buffer.getLine(2).dirty;
      r.render();
      mo.disconnect();
      return {
        idle,
        dirtyBefore,
        dirtyAfter: t.buffer.getLine(2).dirty,
        kept: rows.map((e, i) => e.firstChild === firsts[i]),
        same: dt.rows().every((e, i) => e === rows[i]),
        texts: dt.texts(),
      };
    });
    assertEquals(r.idle, 0, "nothing changed, nothing written");
    assertEquals([r.dirtyBefore, r.dirtyAfter], [true, false]);
    assertEquals(
      r.kept,
      [true, true, false, true, true],
      "one dirty line, one row rewritten",
    );
    assert(r.same, "row elements are kept");
    assertEquals(r.texts, ["line 0", "line 1", "LINE 2", "line 3", "line 4"]);
  });
});

Deno.test("renderer: a replaced Line object is redrawn even if not flagged dirty", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.fake(20, 3);
      for (let y = 0; y < 3; y++) t.put(y, 0, `row ${y}`);
      r.render();
      const fresh = new dt.Line(20);
      fresh.set(0, 0x4e, 0, 0, 0);
      fresh.dirty = false;
      t.normal.lines[1] = fresh;
      r.render();
      return dt.texts();
    });
    assertEquals(r, ["row 0", "N", "row 2"]);
  });
});

Deno.test("renderer: redraws what the view reports damaged and resets it through the view, never in the model", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.fake(20, 3);
      for (let y = 0; y < 3; y++) t.put(y, 0, `row ${y}`);
      r.render();
      // Damage kept apart from the lines' own flags: the renderer must
      // ask the view, and tell it what it drew.
      const damaged = new Set<InstanceType<typeof dt.Line>>();
      const resets: string[] = [];
      t.isDamaged = (line) => damaged.has(line);
      t.resetDamage = (line) => {
        resets.push(line.toString(true));
        damaged.delete(line);
      };
      t.put(1, 0, "ONE"); // flagged dirty in the model, not damaged
      t.put(2, 0, "TWO");
      damaged.add(t.screen(2));
      r.render();
      return {
        texts: dt.texts(),
        resets,
        left: damaged.size,
        // The renderer left the model's flag alone.
        flag: t.screen(1).dirty,
      };
    });
    assertEquals(r.texts, ["row 0", "row 1", "TWO 2"]);
    assertEquals(r.resets, ["TWO 2"]);
    assertEquals(r.left, 0);
    assertEquals(r.flag, true);
  });
});

Deno.test("renderer: lines scrolling into history append rows; trimmed rows go", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.real(20, 4, 10);
      const print = (prefix: string, n: number) => {
        let s = "";
        for (let i = 0; i < n; i++) s += `${prefix}${i}\r\n`;
        t.write(s);
      };
      print("a", 6);
      r.render();
      const n1 = dt.rows().length;
      const history = dt.rows().slice(0, 3);
      const historyFirsts = history.map((e) => e.firstChild);
      const touched = new Set<Node>();
      const mo = new MutationObserver((ms) => {
        for (const m of ms) touched.add(m.target);
      });
      mo.observe(dt.root(), {
        subtree: true,
        childList: true,
        characterData: true,
      });
      print("b", 2);
      r.render();
      mo.takeRecords().forEach((m) => touched.add(m.target));
      mo.disconnect();
      const historyUntouched = history.every((e, i) =>
        !touched.has(e) && e.firstChild === historyFirsts[i] && e.isConnected
      );
      const n2 = dt.rows().length;
      const texts2 = dt.texts();
      // Past the scrollback limit: the oldest rows leave.
      print("c", 8);
      r.render();
      const n3 = dt.rows().length;
      const texts3 = dt.texts();
      const firstGone = !history[0].isConnected;
      // Far more lines in one frame than the scrollback holds.
      const container = dt.root().querySelector(".dt-rows")!;
      let created = 0;
      const countRows = (ms: MutationRecord[]) => {
        for (const m of ms) {
          for (const n of m.addedNodes) {
            if (!(n instanceof HTMLElement)) continue;
            if (n.classList.contains("dt-row")) created++;
            else created += n.querySelectorAll(".dt-row").length;
          }
        }
      };
      const mo2 = new MutationObserver(countRows);
      mo2.observe(container, { childList: true, subtree: true });
      print("d", 500);
      r.render();
      countRows(mo2.takeRecords());
      mo2.disconnect();
      const texts4 = dt.texts();
      return {
        n1,
        n2,
        n3,
        texts2,
        texts3,
        historyUntouched,
        firstGone,
        trimmed: t.buffer.trimmed,
        created,
        n4: texts4.length,
        texts4: texts4.slice(0, 2).concat(texts4.slice(-3)),
      };
    });
    assertEquals(r.n1, 7);
    assert(r.historyUntouched, "history rows are never rewritten");
    assertEquals(r.n2, 9);
    assertEquals(r.texts2, [
      "a0",
      "a1",
      "a2",
      "a3",
      "a4",
      "a5",
      "b0",
      "b1",
      "",
    ]);
    assertEquals(r.n3, 14, "rows + scrollback");
    assertEquals(r.texts3.slice(-6), ["c3", "c4", "c5", "c6", "c7", ""]);
    assert(r.firstGone, "a trimmed row leaves the DOM");
    assertEquals(r.created, 14, "only surviving lines get rows");
    assertEquals(r.n4, 14);
    assertEquals(r.texts4, ["d487", "d488", "d498", "d499", ""]);
  });
});

Deno.test("renderer: blocks and chunks stay consistent through appends, trims, shrinks and clears", async () => {
  await withPage(async ({ page }) => {
    const problems = await page.evaluate(() => {
      const { t, r } = dt.real(30, 8, 5000);
      const out: string[] = [];
      let seed = 7;
      const rand = (n: number) => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
      };
      let serial = 0;
      const check = (step: string) => {
        const container = dt.root().querySelector(".dt-viewport .dt-rows")!;
        const buf = t.normalBuffer;
        const n = (el: HTMLElement) => el.style.getPropertyValue("--dt-n");
        let line = 0;
        for (const block of Array.from(container.children) as HTMLElement[]) {
          if (!block.classList.contains("dt-block")) {
            out.push(`${step}: ${block.className} directly in .dt-rows`);
          }
          const chunks = Array.from(block.children) as HTMLElement[];
          if (chunks.length === 0 || chunks.length > 32) {
            out.push(`${step}: block with ${chunks.length} chunks`);
          }
          let inBlock = 0;
          for (const chunk of chunks) {
            const rows = Array.from(chunk.children) as HTMLElement[];
            // An empty chunk is dormant: drawn when it comes into view.
            const size = rows.length || Number(n(chunk));
            if (size === 0 || size > 64) {
              out.push(`${step}: chunk with ${size} rows`);
            }
            if (n(chunk) !== String(size)) {
              out.push(`${step}: chunk --dt-n ${n(chunk)} != ${size}`);
            }
            for (const row of rows) {
              const want = buf.getLine(line).toString(true);
              if (row.textContent !== want && out.length < 5) {
                out.push(
                  `${step}: row ${line} ${JSON.stringify(row.textContent)} != ${
                    JSON.stringify(want)
                  }`,
                );
              }
              line++;
            }
            if (rows.length === 0) line += size;
            inBlock += size;
          }
          if (n(block) !== String(inBlock)) {
            out.push(`${step}: block --dt-n ${n(block)} != ${inBlock}`);
          }
        }
        if (line !== buf.length) {
          out.push(`${step}: ${line} rows for ${buf.length} lines`);
        }
      };
      for (let step = 0; step < 60 && out.length === 0; step++) {
        const op = rand(10);
        let what: string;
        if (op < 6) {
          const n = [1, 5, 63, 64, 65, 700, 2047, 2049, 4000][rand(9)];
          let s = "";
          for (let i = 0; i < n; i++) s += `line ${serial++}\r\n`;
          t.write(s);
          what = `print ${n}`;
        } else if (op < 8) {
          const rows = 3 + rand(12);
          t.resize(30, rows);
          r.render();
          what = `rows ${rows}`;
        } else if (op < 9) {
          t.write("\x1b[3J");
          what = "ED 3";
        } else {
          t.write("\x1bc");
          what = "RIS";
        }
        r.render();
        check(`step ${step} (${what})`);
      }
      return out;
    });
    assertEquals(problems, []);
  });
});

Deno.test("renderer: cursor sits on its cell, hides, covers wide characters", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(async () => {
      const { t, r } = dt.real(30, 5);
      for (let i = 0; i < 40; i++) t.write(`history ${i}\r\n`);
      t.write("\x1b[3;1Hab世c\x1b[3;2H");
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
      t.write("\x1b[3;4H");
      r.render();
      const p2 = at();
      const wideChar = getComputedStyle(cur()!, "::before").content;
      // Unfocused: hollow.
      r.setFocused(false);
      const hollowBg = getComputedStyle(cur()!).backgroundColor;
      r.setFocused(true);
      const solidBg = getComputedStyle(cur()!).backgroundColor;
      t.write("\x1b[5 q"); // blinking bar
      r.render();
      const barClass = cur()!.className;
      const anim = getComputedStyle(cur()!).animationName;
      t.write("\x1b[?25l");
      r.render();
      const hidden = cur() === null;
      t.write("\x1b[?25h\x1b[5;1H");
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
      const { t, r } = dt.real(30, 5);
      t.write("\x1b[4;8H");
      r.render();
      const rect = r.cursorRect();
      const c = dt.root().querySelector(".dt-cursor")!.getBoundingClientRect();
      const row = dt.rows()[3].getBoundingClientRect();
      const cell = r.measureCell();
      t.write("\x1b[?25l"); // hidden: the IME still needs the place
      r.render();
      const hiddenRect = r.cursorRect();
      return {
        hiddenRect,
        rect,
        c: { left: c.left, top: c.top, width: c.width, height: c.height },
        expect: { left: row.left + 7 * cell.width, top: row.top },
      };
    });
    assertEquals(r.hiddenRect, r.rect);
    for (const k of ["left", "top", "width", "height"] as const) {
      assert(
        Math.abs(r.rect[k] - r.c[k]) < 0.5,
        `${k}: ${r.rect[k]} vs ${r.c[k]}`,
      );
    }
    assert(
      Math.abs(r.rect.left - r.expect.left) < 0.5 &&
        Math.abs(r.rect.top - r.expect.top) < 0.5,
    );
  });
});

Deno.test("renderer: the alternate screen covers the normal viewport, which stays intact", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.real(20, 4);
      for (let i = 0; i < 30; i++) t.write(`n${i}\r\n`);
      r.render();
      const vp = dt.root().querySelector<HTMLElement>(".dt-viewport")!;
      const alt = dt.root().querySelector<HTMLElement>(".dt-alt")!;
      const normalRows = dt.rows();
      const scroll = vp.scrollTop;
      t.write("\x1b[?1049h\x1b[HALT SCREEN\r\n");
      r.render();
      const inAlt = {
        altVisible: getComputedStyle(alt).display !== "none",
        vpVisibility: getComputedStyle(vp).visibility,
        altTexts: dt.texts(dt.altRows()),
        normalSame: dt.rows().every((e, i) => e === normalRows[i]) &&
          dt.rows().length === normalRows.length,
        cursorInAlt: alt.contains(dt.root().querySelector(".dt-cursor")),
      };
      t.write("\x1b[?1049l");
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

Deno.test("renderer: resizing keeps the grid and redraws only what the resize changed", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.real(30, 4);
      for (let i = 1; i < 17; i++) t.write(`short ${i}\r\n`);
      t.write("0123456789".repeat(3) + "\r\n"); // fills the row, re-wraps
      t.write("a\r\nb\r\nc\r\nend"); // the screen, below the history
      r.render();
      const rows = dt.rows();
      const firsts = rows.map((e) => e.firstChild);
      t.resize(25, 4);
      r.render();
      const cell = r.measureCell();
      const after = dt.rows();
      return {
        width: after[0].getBoundingClientRect().width,
        expect: 25 * cell.width,
        kept: after.slice(0, 17).map((e, i) => e.firstChild === firsts[i]),
        wrapped: dt.texts().slice(16, 18),
      };
    });
    assert(Math.abs(r.width - r.expect) < 0.05, `${r.width} vs ${r.expect}`);
    assertEquals(
      r.wrapped,
      ["0123456789012345678901234", "56789"],
      "a long line is re-wrapped",
    );
    assertEquals(
      r.kept,
      [...new Array(16).fill(true), false],
      "history rows that still fit are not redrawn",
    );
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
      Object.assign(globalThis, { R: dt.real(10, 3).r });
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
      const { t, r } = dt.real(20, 5);
      const vp = dt.root().querySelector<HTMLElement>(".dt-viewport")!;
      const atBottom = () =>
        vp.scrollHeight - vp.scrollTop - vp.clientHeight < 2;
      const print = (p: string, n: number) => {
        for (let i = 0; i < n; i++) t.write(`${p}${i}\r\n`);
      };
      print("a", 50);
      r.render();
      const first = atBottom();
      vp.scrollTop = 100;
      await dt.frames(2);
      print("b", 20);
      r.render();
      const stayed = vp.scrollTop === 100 && !atBottom();
      vp.scrollTop = vp.scrollHeight;
      await dt.frames(2);
      print("c", 20);
      r.render();
      return { first, stayed, followsAgain: atBottom() };
    });
    assertEquals(r, { first: true, stayed: true, followsAgain: true });
  });
});

Deno.test("renderer: light and dark themes follow prefers-color-scheme, old output included", async () => {
  await withPage(async ({ page }) => {
    await page.evaluate(() => {
      const { t, r } = dt.real(20, 3);
      t.write("\x1b[31mred\x1b[0m plain");
      r.render();
    });
    const look = () =>
      page.evaluate(() => {
        const root = getComputedStyle(dt.root());
        return {
          bg: root.backgroundColor,
          fg: root.color,
          red: getComputedStyle(dt.find(dt.rows()[0], "red")).color,
          font: root.fontFamily.split(",")[0],
          scheme: root.colorScheme,
        };
      });
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await look();
    await page.emulateMedia({ colorScheme: "light" });
    const light = await look();
    assertEquals(dark, {
      bg: "rgb(28, 31, 38)",
      fg: "rgb(213, 217, 224)",
      red: "rgb(229, 112, 122)",
      font: "ui-monospace",
      scheme: "dark",
    });
    assertEquals(light, {
      bg: "rgb(251, 251, 250)",
      fg: "rgb(47, 51, 59)",
      red: "rgb(200, 55, 45)",
      font: "ui-monospace",
      scheme: "light",
    });
  });
});

Deno.test("renderer: blinking text and a blinking cursor stop under prefers-reduced-motion", async () => {
  await withPage(async ({ page }) => {
    const probe = () =>
      page.evaluate(() => {
        const { t, r } = dt.real(20, 3);
        t.write("\x1b[5mblink\x1b[0m \x1b[1 q");
        r.setFocused(true);
        r.render();
        const cur = dt.root().querySelector(".dt-cursor")!;
        const out = {
          text: getComputedStyle(dt.find(dt.rows()[0], "blink")).animationName,
          cursor: getComputedStyle(cur).animationName,
        };
        r.dispose();
        return out;
      });
    await page.emulateMedia({ reducedMotion: "no-preference" });
    assertEquals(await probe(), {
      text: "dt-blink",
      cursor: "dt-cursor-blink",
    });
    await page.emulateMedia({ reducedMotion: "reduce" });
    assertEquals(await probe(), { text: "none", cursor: "none" });
  });
});

Deno.test("renderer: schedule() coalesces into one render per frame and waits out ?2026", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(async () => {
      const { t, r } = dt.real(20, 3);
      await dt.frames(3);
      let renders = 0;
      const orig = r.render.bind(r);
      r.render = () => {
        renders++;
        orig();
      };
      for (let i = 0; i < 50; i++) {
        t.write(`\rn${i}`);
        r.schedule();
      }
      const before = dt.texts()[0];
      await dt.frames(3);
      const coalesced = { renders, before, after: dt.texts()[0] };
      // Synchronized output: nothing is drawn until the update ends.
      t.write("\x1b[?2026h\r\nsync");
      r.schedule();
      await dt.frames(3);
      const held = dt.texts()[1];
      t.write("\x1b[?2026l");
      r.schedule();
      await dt.frames(2);
      return { coalesced, held, released: dt.texts()[1] };
    });
    assertEquals(r.coalesced, { renders: 1, before: "", after: "n49" });
    assertEquals(r.held, "");
    assertEquals(r.released, "sync");
  });
});

Deno.test("renderer: selected rows copy as lines of text", async () => {
  await withPage(async ({ page }) => {
    const text = await page.evaluate(() => {
      const { t, r } = dt.real(20, 4);
      t.write("\x1b[33mfirst\x1b[0m line\r\n\r\nx中y\x1b[1;3H");
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
      const { r } = dt.real(20, 3);
      r.dispose();
      return { children: dt.root().children.length, cls: dt.root().className };
    });
    assertEquals(r, { children: 0, cls: "" });
  });
});

Deno.test("renderer: sample screen (screenshot to $DT_SCREENSHOT)", async () => {
  const scale = Deno.env.get("DT_ZOOM") ? 3 : 1;
  await withPage(
    async ({ page }) => {
      await page.emulateMedia({
        colorScheme: Deno.env.get("DT_LIGHT") ? "light" : "dark",
      });
      const texts = await page.evaluate(() => {
        const { t, r } = dt.real(90, 22);
        const P =
          "\x1b[1;32mana@hostname\x1b[0m:\x1b[1;34m~/src/domterm\x1b[0m$ ";
        let s = P + "ls --color\r\n";
        s += "\x1b[1;34mclient\x1b[0m  \x1b[1;34mcore\x1b[0m  main.ts  " +
          "\x1b[1;32mbuild.sh\x1b[0m  README.md  \x1b[1;36mlink\x1b[0m\r\n";
        s += P + "git diff --stat\r\n";
        s +=
          " client/renderer.ts | 42 \x1b[32m+++++++++++++\x1b[31m---\x1b[0m\r\n\r\n";
        s += "\x1b[1mbold\x1b[0m \x1b[2mfaint\x1b[0m \x1b[3mitalic\x1b[0m " +
          "\x1b[4munderline\x1b[0m \x1b[4:2mdouble\x1b[0m \x1b[4:3;58:5:1mcurly\x1b[0m " +
          "\x1b[4:4mdotted\x1b[0m \x1b[4:5mdashed\x1b[0m \x1b[9mstrike\x1b[0m " +
          "\x1b[53moverline\x1b[0m \x1b[7minverse\x1b[0m\r\n";
        for (let i = 0; i < 16; i++) {
          s += `\x1b[${i < 8 ? 30 + i : 82 + i}m ${i.toString(16)} `;
        }
        s += "\x1b[0m\r\n";
        for (let i = 0; i < 16; i++) s += `\x1b[48;5;${i}m   `;
        s += "\x1b[0m\r\n";
        for (let i = 16; i < 232; i += 3) s += `\x1b[48;5;${i}m `;
        s += "\x1b[0m\r\n";
        for (let i = 0; i < 90; i++) {
          const v = Math.round((i / 89) * 255);
          s += `\x1b[38;2;${255 - v};${v};128;48;2;${v};64;${255 - v}m▀`;
        }
        s += "\x1b[0m\r\n";
        s +=
          "CJK: 日本語のテキスト 中文字符 한국어  emoji: 🎉✨  box: ┌─┬─┐ │ ├─┼─┤ └─┴─┘\r\n";
        s +=
          "\x1b[1;31merror\x1b[0;1m: cannot find value `rendr` in this scope\x1b[0m\r\n";
        s += "  \x1b[1;34m-->\x1b[0m client/renderer.ts:12:5\r\n";
        s +=
          "\x1b[30;43;1m WARN \x1b[0m deprecated option \x1b[3m--fast\x1b[0m\r\n";
        s += P + "echo hello";
        t.write(s);
        r.setFocused(true);
        r.render();
        return dt.texts();
      });
      assert(texts[0].startsWith("ana@hostname:~/src/domterm$ ls --color"));
      const path = Deno.env.get("DT_SCREENSHOT");
      if (path) await page.screenshot({ path });
      const zoom = Deno.env.get("DT_ZOOM");
      if (zoom) {
        await page.screenshot({
          path: zoom,
          clip: { x: 300, y: 150, width: 400, height: 60 },
        });
      }
    },
    { width: 820, height: 440 },
    scale,
  );
});

// A measurement, not a test: registered only when asked for with DT_BENCH=1.
if (Deno.env.get("DT_BENCH")) {
  Deno.test({
    name: "renderer: bench (DT_BENCH=1)",
    fn: async () => {
      await withPage(async ({ page }) => {
        const extraCss = Deno.env.get("DT_BENCH_CSS");
        if (extraCss) await page.addStyleTag({ content: extraCss });
        const res = await page.evaluate(() => {
          const C = dt.cell;
          const cols = 120, n = 2000;
          // 2000 lines of ls-like text: palette, direct colour and bold runs.
          const ft = new dt.FakeTerm(cols, n);
          const words = [
            "ls",
            "-la",
            "drwxr-xr-x",
            "README.md",
            "src/",
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
              x = ft.put(y, x, w + " ", fg, 0, k % 4 === 0 ? C.A_BOLD : 0);
            }
          }
          const lines = ft.normal.lines;
          const root = dt.root();
          const r0 = new dt.Renderer(root, new dt.FakeTerm(cols, 2));
          r0.render();
          const rowsEl = root.querySelector(".dt-rows")!;
          const painter = new dt.RowPainter(() => ({
            underlineColor: 0,
            link: null,
          }));
          const out: Record<string, number> = {};
          const best = (reps: number, f: () => void) => {
            let b = Infinity;
            for (let i = 0; i < reps; i++) {
              const t0 = performance.now();
              f();
              b = Math.min(b, performance.now() - t0);
            }
            return b;
          };
          out["painter: 2000 rows to HTML"] = best(5, () => {
            for (const l of lines) painter.html(l);
          });
          const html = lines.map((l) => painter.html(l));
          // Building 2000 rows three ways (DOM only, then with layout).
          const build = (name: string, f: () => void) => {
            let dom = Infinity, all = Infinity;
            for (let rep = 0; rep < 5; rep++) {
              rowsEl.textContent = "";
              document.body.offsetHeight;
              const t0 = performance.now();
              f();
              dom = Math.min(dom, performance.now() - t0);
              document.body.offsetHeight;
              all = Math.min(all, performance.now() - t0);
            }
            out[`${name}: DOM`] = dom;
            out[`${name}: DOM + layout`] = all;
          };
          build("2000 rows, one insertAdjacentHTML", () => {
            let s = "";
            for (const h of html) s += '<div class="dt-row">' + h + "</div>";
            rowsEl.insertAdjacentHTML("beforeend", s);
          });
          build("2000 rows, div + innerHTML each", () => {
            for (const h of html) {
              const d = document.createElement("div");
              d.className = "dt-row";
              d.innerHTML = h;
              rowsEl.appendChild(d);
            }
          });
          build("2000 rows, DocumentFragment of elements", () => {
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
                  let cls = (ra & C.A_BOLD) ? "dt-bold" : "";
                  if ((rf >>> 24) === 1) cls += ` dt-fg${rf & 255}`;
                  else if (rf) {
                    s.style.color = `rgb(${(rf >> 16) & 255},${
                      (rf >> 8) & 255
                    },${rf & 255})`;
                  }
                  if (cls) s.className = cls;
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
          // Rewriting 50 screen rows per frame.
          rowsEl.textContent = "";
          rowsEl.insertAdjacentHTML(
            "beforeend",
            '<div class="dt-row"></div>'.repeat(50),
          );
          const rowEls = Array.from(rowsEl.children) as HTMLElement[];
          out["rewrite 50 rows x100 frames, innerHTML (+layout)"] = best(
            1,
            () => {
              for (let f = 0; f < 100; f++) {
                for (let i = 0; i < 50; i++) {
                  rowEls[i].innerHTML = html[(f * 50 + i) % n];
                }
                document.body.offsetHeight;
              }
            },
          );
          const tpl = document.createElement("template");
          out[
            "rewrite 50 rows x100 frames, template + replaceChildren (+layout)"
          ] = best(1, () => {
            for (let f = 0; f < 100; f++) {
              for (let i = 0; i < 50; i++) {
                tpl.innerHTML = html[(f * 50 + i) % n];
                rowEls[i].replaceChildren(tpl.content);
              }
              document.body.offsetHeight;
            }
          });
          rowsEl.textContent = "";
          r0.dispose();

          // The renderer in steady state: a flood into a full 5000-line scrollback.
          const ft2 = new dt.FakeTerm(100, 30);
          ft2.scrollback = 5000;
          const rr = new dt.Renderer(root, ft2);
          const flood = (count: number) => {
            for (let i = 0; i < count; i++) {
              ft2.scroll(1);
              const b = ft2.normal.lines;
              b[b.length - 2] = lines[i % 200].clone();
            }
          };
          flood(6000);
          rr.render();
          document.body.offsetHeight;
          const median = (xs: number[]) =>
            xs.sort((a, b) => a - b)[xs.length >> 1];
          const floodTimes: number[] = [];
          for (let f = 0; f < 20; f++) {
            flood(1000);
            const t0 = performance.now();
            rr.render();
            document.body.offsetHeight;
            floodTimes.push(performance.now() - t0);
          }
          out[
            "renderer: 1000 new lines/frame into 5000 scrollback, median frame (+layout)"
          ] = median(floodTimes);
          // A full-screen application: every screen row changes every frame.
          const screenTimes: number[] = [];
          for (let f = 0; f < 50; f++) {
            for (let y = 0; y < 30; y++) {
              ft2.put(
                y,
                0,
                `frame ${f} row ${y} `.repeat(4),
                C.paletteColor(y % 8),
              );
            }
            const t0 = performance.now();
            rr.render();
            document.body.offsetHeight;
            screenTimes.push(performance.now() - t0);
          }
          out["renderer: 30 dirty screen rows/frame, median frame (+layout)"] =
            median(screenTimes);
          rr.dispose();

          // Resizing the real emulator with a full 10,000-line history.
          const term = new dt.Terminal({ cols: 100, rows: 30 });
          const rt = new dt.Renderer(root, term);
          let text = "";
          for (let i = 0; i < 10100; i++) {
            text += `\x1b[3${
              i % 8
            }mline ${i}\x1b[0m some text to fill the row ${i}\r\n`;
          }
          term.write(text);
          rt.render();
          document.body.offsetHeight;
          const resizeTimes: number[] = [];
          for (let f = 0; f < 6; f++) {
            term.resize(f % 2 ? 100 : 99, 30);
            const t0 = performance.now();
            rt.render();
            document.body.offsetHeight;
            resizeTimes.push(performance.now() - t0);
          }
          out[
            "renderer: column resize with 10000 history lines, median (+layout)"
          ] = median(
            resizeTimes,
          );
          rt.dispose();
          return out;
        });
        for (const [k, v] of Object.entries(res)) {
          console.log(`${k}: ${v.toFixed(1)} ms`);
        }
      });
    },
  });
}

Deno.test("renderer: fallback glyphs stay in their cells (issue 32)", async () => {
  await withPage(async ({ page }) => {
    const r = await page.evaluate(() => {
      const { t, r } = dt.real(80, 8);
      const inner = "\u28ff\u2800\u25cf\u2596".repeat(5); // 20 cells
      t.write(
        "\u28ff".repeat(10) + "\x1b[31GX\r\n" + // braille from a fallback font
          "a\u0334b\u0335c\u0336d\u0337".repeat(3) + "\x1b[31GX\r\n" +
          "\u0e01\u0e31\u0e02\u0e35\u0e04\u0e48".repeat(3) + "\x1b[31GX\r\n" +
          "\u250c" + "\u2500".repeat(20) + "\u2510\r\n" +
          "\u2502" + inner + "\u2502\r\n" +
          "\u2514" + "\u2500".repeat(20) + "\u2518\r\n" +
          "\x1b[1;32m\u28ff\u28ff\x1b[0m\u28ffY",
      );
      r.render();
      const cell = r.measureCell();
      const rows = dt.rows();
      const rowLeft = rows[0].getBoundingClientRect().left;
      // The column of the last `ch` in row `row`, from where it is drawn.
      const at = (row: number, ch: string) => {
        const walker = document.createTreeWalker(
          rows[row],
          NodeFilter.SHOW_TEXT,
        );
        let left = NaN;
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const i = n.textContent!.lastIndexOf(ch);
          if (i < 0) continue;
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + ch.length);
          left = range.getBoundingClientRect().left;
        }
        return (left - rowLeft) / cell.width;
      };
      const sel = getSelection()!;
      const copied = (row: number) => {
        sel.selectAllChildren(rows[row]);
        const range = sel.getRangeAt(0);
        return [sel.toString(), dt.selectedRowsText(dt.root(), range)];
      };
      return {
        x: [at(0, "X"), at(1, "X"), at(2, "X")],
        right: [at(3, "\u2510"), at(4, "\u2502"), at(5, "\u2518")],
        y: at(6, "Y"),
        copied: [0, 1, 2, 4, 6].map(copied),
        texts: dt.texts(),
        boxSpans: rows[3].querySelectorAll("span").length,
        inner,
      };
    });
    // Each X was written at column 31 (0-based 30): its left edge there.
    for (const x of r.x) assert(Math.abs(x - 30) < 0.05, `X at ${r.x}`);
    // The box's right side is one column, 21, in every row.
    for (const x of r.right) assert(Math.abs(x - 21) < 0.05, `box ${r.right}`);
    assert(Math.abs(r.y - 3) < 0.05, `Y at ${r.y}`);
    const texts = [
      "\u28ff".repeat(10) + " ".repeat(20) + "X",
      "a\u0334b\u0335c\u0336d\u0337".repeat(3) + " ".repeat(18) + "X",
      "\u0e01\u0e31\u0e02\u0e35\u0e04\u0e48".repeat(3) + " ".repeat(21) + "X",
    ];
    assertEquals(r.texts.slice(0, 3), texts);
    // Copy (the browser's and the terminal's) gives the text.
    assertEquals(r.copied[0], [texts[0], texts[0]]);
    assertEquals(r.copied[1], [texts[1], texts[1]]);
    assertEquals(r.copied[2], [texts[2], texts[2]]);
    const boxRow = "\u2502" + r.inner + "\u2502";
    assertEquals(r.copied[3], [boxRow, boxRow]);
    assertEquals(r.copied[4][1], "\u28ff\u28ff\u28ffY");
    console.log(r.x, r.right, r.y, r.boxSpans);
  });
});

// The cost of keeping cells in their columns (GlyphFit, issue 32): a
// measurement, registered only with DT_BENCH_WIDTHS=1.
if (Deno.env.get("DT_BENCH_WIDTHS")) {
  Deno.test("renderer: cell widths bench (DT_BENCH_WIDTHS=1)", async () => {
    await withPage(async ({ page }) => {
      const res = await page.evaluate(() => {
        const C = dt.cell;
        const cols = 120, n = 2000;
        const ascii = new dt.FakeTerm(cols, n), tui = new dt.FakeTerm(cols, n);
        for (let y = 0; y < n; y++) {
          let x = 0, k = y;
          while (x < cols - 12) {
            const fg = k % 3 === 0 ? C.paletteColor(k % 8) : 0;
            x = ascii.put(y, x, `word${k++ % 97} `, fg);
          }
          // btop-like: box sides, a graph of braille, é, ─.
          tui.put(y, 0, "\u2502 cpu \u00e9t\u00e9 ", C.paletteColor(2));
          tui.put(y, 12, "\u28ff\u28c0\u2840\u28e4\u28f6".repeat(12));
          tui.put(y, 72, "\u2500".repeat(40) + "\u2502", C.paletteColor(4));
        }
        const { r } = dt.real(cols, 30);
        const cell = r.measureCell();
        const fit = new dt.GlyphFit();
        fit.setFont(dt.canvasFont(dt.root()), cell.width);
        const painter = new dt.RowPainter(() => ({
          underlineColor: 0,
          link: null,
        }));
        const best = (reps: number, f: () => void) => {
          let b = Infinity;
          for (let i = 0; i < reps; i++) {
            const t0 = performance.now();
            f();
            b = Math.min(b, performance.now() - t0);
          }
          return b;
        };
        const out: Record<string, number> = {};
        const rowsEl = dt.root().querySelector(".dt-alt")!;
        (rowsEl as HTMLElement).hidden = false;
        rowsEl.textContent = "";
        rowsEl.insertAdjacentHTML(
          "beforeend",
          '<div class="dt-row"></div>'.repeat(30),
        );
        const rowEls = Array.from(rowsEl.children) as HTMLElement[];
        for (const [name, ft] of [["ascii", ascii], ["tui", tui]] as const) {
          const lines = ft.normal.lines;
          for (const w of [null, fit]) {
            painter.widths = w;
            const tag = `${name}, widths ${w === null ? "off" : "on"}`;
            out[`${tag}: 2000 rows to HTML`] = best(7, () => {
              for (const l of lines) painter.html(l);
            });
            const html = lines.map((l) => painter.html(l));
            const variants: [string, string[]][] = [["", html]];
            if (w !== null && name === "tui") {
              variants.push([
                " (spans without spacing)",
                html.map((h) => h.replace(/letter-spacing:[^"]*/g, "")),
              ]);
            }
            for (const [v, hs] of variants) {
              out[`${tag}${v}: rewrite 30 rows x100 frames (+layout)`] = best(
                3,
                () => {
                  for (let f = 0; f < 100; f++) {
                    for (let i = 0; i < 30; i++) {
                      rowEls[i].innerHTML = hs[(f * 30 + i) % n];
                    }
                    document.body.offsetHeight;
                  }
                },
              );
            }
          }
        }
        return out;
      });
      for (const [k, v] of Object.entries(res)) {
        console.log(`${k}: ${v.toFixed(2)} ms`);
      }
    });
  });
}
