/**
 * OSC 72 / 721 end to end: a real program prints HTML fragments through a
 * real PTY and server; the real client in headless Chromium shows block and
 * inline fragments, replaces keyed content, shows a notice for a rejected
 * fragment, and runs no script and loads nothing for the whole XSS corpus.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "./domterm.ts";
import { XSS_CORPUS } from "./fixtures/xss_corpus.ts";

const OSC = "\x1b]";
const BEL = "\x07";

/** Run `sh -c "cat FILE; echo MARK; sleep 60"` where FILE holds `output`. */
async function showOutput(
  output: string,
  mark: string,
  fn: (page: Page) => Promise<void>,
  setup?: (page: Page) => Promise<void>,
  later = "",
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/out`;
  await Deno.writeTextFile(file, output);
  await Deno.writeTextFile(`${dir}/later`, later);
  const t = await startDomterm([
    "sh",
    "-c",
    `while [ ! -e '${dir}/go' ]; do sleep 0.05; done; cat '${file}'; ` +
    `if [ -s '${dir}/later' ]; then sleep 1; cat '${dir}/later'; fi; echo ${mark}; sleep 60`,
  ]);
  try {
    await setup?.(t.page);
    await Deno.writeTextFile(`${dir}/go`, "");
    await waitForRow(t.page, mark, 20_000);
    await fn(t.page);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("e2e embeds: block and inline fragments, OSC 721, rejected notice, cursor after a block", async () => {
  const out = "before\r\n" +
    `${OSC}72;<div class="box" style="height:60px;border:1px solid red">BLOCK</div>${BEL}` +
    `in: a${OSC}72;<b class="inl">BOLD</b>${BEL}b\r\n` +
    `${OSC}72;<p class="can-replace-children" replace-key="prog">0%</p>${BEL}` +
    `${OSC}721;prog;<i>100%</i>${BEL}` +
    `${OSC}72;<script>window.__ran = 1</script>${BEL}\r\n` +
    `${OSC}72;<p class="part">kept<img src="javascript:alert(1)"></p>${BEL}` +
    "after\r\n";
  await showOutput(out, "DONE", async (page) => {
    await waitForRow(page, "after");
    const r = await page.evaluate(() => {
      const rows = Array.from(document.querySelectorAll("#terminal .dt-row"));
      const text = (e: Element) => (e.textContent ?? "").trim();
      const box = document.querySelector(".dt-embed-block .box");
      const blockRow = box?.closest(".dt-row") as HTMLElement | undefined;
      const inlineRow = rows.find((r) => text(r) === "in: aBOLDb");
      const b = inlineRow?.querySelector(".dt-embed-inline b.inl");
      const replaced = document.querySelector(
        '.dt-embed-block p[replace-key="prog"]',
      );
      const notice = document.querySelector(".dt-embed .dt-html-rejected");
      const cellH = parseFloat(
        getComputedStyle(document.getElementById("terminal")!)
          .getPropertyValue("--dt-cell-h"),
      );
      const before = rows.find((r) => text(r) === "before")!;
      return {
        blockHeight: blockRow?.getBoundingClientRect().height ?? 0,
        blockTopGap: blockRow
          ? blockRow.getBoundingClientRect().top -
            before.getBoundingClientRect().bottom
          : -1,
        cellH,
        inlineBefore: b?.parentElement?.previousSibling?.textContent ?? null,
        inlineAfter: b?.parentElement?.nextSibling?.textContent ?? null,
        replaced: replaced?.innerHTML ?? null,
        notice: notice ? text(notice) : null,
        ran: (globalThis as { __ran?: number }).__ran ?? 0,
        partial: (() => {
          const p = document.querySelector(".dt-embed-block p.part");
          const m = p?.previousElementSibling as HTMLElement | null;
          return m?.className === "dt-html-partial"
            ? `${m.textContent}|${/javascript/.test(m.title)}`
            : null;
        })(),
      };
    });
    // The block has its natural height (60px + borders), rows around it one cell.
    assertEquals(Math.round(r.blockHeight), 62);
    assert(Math.abs(r.blockTopGap) < 1, `gap ${r.blockTopGap}`);
    assertEquals(r.inlineBefore, "in: a");
    assertEquals(r.inlineAfter, "b");
    assertEquals(r.replaced, "<i>100%</i>");
    assert(
      r.notice?.startsWith("HTML output blocked"),
      `notice: ${r.notice}`,
    );
    assertEquals(r.ran, 0);
    // Content with parts removed shows what is left and a marker saying so.
    assertEquals(r.partial, "\u26a0|true");
    // The cursor is drawn on the row after "DONE", below the blocks.
    const cursor = await page.evaluate(() => {
      const c = document.querySelector("#terminal .dt-cursor");
      const row = c?.closest(".dt-row");
      const prev = row?.previousElementSibling;
      const vp = document.querySelector(".dt-viewport")!;
      return {
        prev: prev?.textContent?.trim() ?? null,
        visible: !!c &&
          c.getBoundingClientRect().bottom <=
            vp.getBoundingClientRect().bottom + 1,
      };
    });
    assertEquals(cursor, { prev: "DONE", visible: true });
  });
});

Deno.test("e2e embeds: the XSS corpus through OSC 72 runs no script and makes no request", async () => {
  const EXT = "http://evil.example";
  let out = "";
  for (const [i, p] of XSS_CORPUS.entries()) {
    const leak = `${EXT}/leak/${i}`;
    out += `${OSC}72;` +
      p.html.replaceAll("{LEAK_NOSCHEME}", leak.replace(/^http:/, ""))
        .replaceAll("{LEAK}", leak).replaceAll("{EXT}", EXT) +
      `${BEL}#${i}\r\n`;
  }
  const requests: string[] = [];
  await showOutput(
    out,
    "XSS-DONE",
    async (page) => {
      await page.waitForTimeout(1000);
      const r = await page.evaluate(() => ({
        hits: (globalThis as unknown as { __hits: string[] }).__hits,
        embeds: document.querySelectorAll(".dt-embed").length,
        notices: document.querySelectorAll(".dt-embed .dt-html-rejected")
          .length,
        js: Array.from(
          document.querySelectorAll(".dt-embed [href], .dt-embed [src]"),
        )
          .map((e) => e.getAttribute("href") ?? e.getAttribute("src") ?? "")
          .filter((u) => /^\s*javascript:/i.test(u)),
      }));
      assertEquals(r.hits, [], "script ran");
      assertEquals(requests, [], "network requests");
      assertEquals(r.js, [], "javascript: URLs");
      // Every fragment shows something: content or a notice.
      assertEquals(r.embeds, XSS_CORPUS.length);
      assert(r.notices > 50, `only ${r.notices} notices`);
    },
    async (page) => {
      const origin = new URL(page.url()).origin;
      await page.addInitScript(() => {
        const g = globalThis as unknown as {
          __hits: string[];
          __xss: () => void;
        };
        g.__hits = [];
        g.__xss = () => g.__hits.push("hit");
      });
      await page.evaluate(() => {
        const g = globalThis as unknown as {
          __hits: string[];
          __xss: () => void;
        };
        g.__hits = [];
        g.__xss = () => g.__hits.push("hit");
      });
      const allowed = new Set(["/", "/client.js", "/domterm.css", "/ui.css"]);
      page.on("request", (req) => {
        const u = new URL(req.url());
        if (u.protocol === "data:" || u.protocol === "blob:") return;
        if (u.origin === origin && allowed.has(u.pathname)) return;
        if (u.origin === origin && u.pathname === "/favicon.ico") return;
        requests.push(req.url());
      });
      await page.route(
        (u) => u.origin !== origin,
        (route) => route.abort(),
      );
    },
  );
});

Deno.test("e2e embeds: OSC 721 replaces content that scrolled into the scrollback", async () => {
  let out =
    `${OSC}72;<div class="can-replace-children" replace-key="old">waiting</div>${BEL}`;
  for (let i = 0; i < 60; i++) out += `line ${i}\r\n`;
  // A second later, after the first part has been drawn.
  const later = `${OSC}721;old;<b>finished</b>${BEL}`;
  await showOutput(
    out,
    "HIST-DONE",
    async (page) => {
      await page.waitForFunction(() =>
        document.querySelector('.dt-embed [replace-key="old"]')?.innerHTML ===
          "<b>finished</b>"
      );
      // It is above the screen (in the history rows).
      const top = await page.evaluate(() => {
        const el = document.querySelector('.dt-embed [replace-key="old"]')!;
        const rows = Array.from(document.querySelectorAll("#terminal .dt-row"));
        return rows.indexOf(el.closest(".dt-row")!);
      });
      assertEquals(top, 0);
    },
    undefined,
    later,
  );
});

Deno.test("e2e embeds: inline HTML alone on a line stays on its row; the cursor after inline HTML is drawn after it", async () => {
  // `domterm html '<b>..</b>'` then a prompt on the next line: the line
  // holds only the fragment. Then a line with a fragment, then text, and
  // the cursor left after that text.
  const out = `${OSC}72;<b class="alone">plain bold html</b>${BEL}\r\n` +
    "next\r\n" +
    `${OSC}72;<b class="lead">LEADING HTML</b>${BEL}$ `;
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/out`, out);
  const t = await startDomterm(["sh", "-c", `cat '${dir}/out'; sleep 60`]);
  try {
    const page = t.page;
    await waitForRow(page, "next", 20_000);
    await page.waitForFunction(() =>
      document.querySelector(".lead")?.closest(".dt-row")
        ?.querySelector(".dt-cursor") != null
    );
    const r = await page.evaluate(() => {
      const box = (e: Element | null | undefined) => e!.getBoundingClientRect();
      const alone = document.querySelector(".alone")!;
      const aloneRow = alone.closest(".dt-row")!;
      const nextRow = Array.from(document.querySelectorAll("#terminal .dt-row"))
        .find((r) => (r.textContent ?? "").trim() === "next")!;
      const lead = document.querySelector(".lead")!;
      const cursor = lead.closest(".dt-row")!.querySelector(".dt-cursor")!;
      return {
        aloneTop: box(alone).top,
        aloneRowTop: box(aloneRow).top,
        aloneRowHeight: box(aloneRow).height,
        nextTop: box(nextRow).top,
        firstChild: aloneRow.firstChild?.nodeName,
        leadRight: box(lead).right,
        cursorLeft: box(cursor).left,
        cellWidth: box(cursor).width,
      };
    });
    // On its own row (no <br> before it pushing it onto the next one).
    assert(r.firstChild !== "BR", `the row starts with ${r.firstChild}`);
    assert(
      Math.abs(r.aloneTop - r.aloneRowTop) < 4,
      `the fragment's top ${r.aloneTop} is not its row's ${r.aloneRowTop}`,
    );
    assert(r.nextTop >= r.aloneRowTop + r.aloneRowHeight - 1, "rows overlap");
    // The cursor is after "$ ", which is after the fragment.
    assert(
      r.cursorLeft >= r.leadRight + 1.5 * r.cellWidth,
      `cursor at ${r.cursorLeft}, fragment ends at ${r.leadRight}`,
    );
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
