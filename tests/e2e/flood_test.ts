/**
 * Flood responsiveness, end to end: a real bash on a real PTY floods the
 * real page (domterm server, WebSocket, headless Chromium) with `yes`,
 * `base64 /dev/urandom` and `cat` of a 500 MB text file. While it floods,
 * the page must keep drawing frames and answer the wheel and a mouse
 * selection; Ctrl-C, typed as a real key press, must stop the flood and
 * bring the prompt back within 300 ms. Every figure is printed.
 *
 * Why this holds: the page processes output in slices of at most 8 ms
 * (client/connection.ts) and acknowledges it only once processed, so the
 * server stops reading the PTY while the page is more than 1 MiB behind
 * (docs/protocol.md, flow control). Ctrl-C then has at most that backlog to
 * wait behind, and the terminal driver discards what the PTY still held.
 * History that scrolls by is not drawn during the flood (dormant chunks,
 * client/renderer.ts), so a frame costs the screen's rows, not the flood's.
 */
import { assert } from "../assert.ts";
import type { Page } from "playwright-core";
import { rowTexts, startDomterm, waitForRow } from "./domterm.ts";
import { E2E_STREAMS } from "../../bench/e2e/streams.ts";
import type { Inspected } from "../../client/inspect.ts";

/** The figure; writing it from memory takes 3-12 s here. */
const BIG_FILE_BYTES = 500 * 1000 * 1000;
/** Ctrl-C to prompt, at most (issue "DOM renderer"). */
const CTRL_C_MS = 300;
/**
 * Wheel to scroll event and mouse down to selection change while flooding:
 * at most this long.
 * Measured on the 2-core machine at a load average of 8-17 (other
 * engineers' tests beside): wheel 10-84 ms, selection 8-93 ms, Ctrl-C to
 * prompt 52-173 ms. 250 ms is a delay a user would call a stall.
 */
const STALL_MS = 250;
/**
 * Mouse selections made per flood; their median must be under STALL_MS and
 * each under FRAME_GAP_MS. A single sample failed CI at 315 ms once: the
 * page's long-animation-frame entries there show style and layout frames of
 * 100-115 ms while `cat` floods CJK rows into the history in view, and
 * frames with no script at all as long as 100 ms (the renderer waiting for
 * one of the 2 cores).
 */
const SELECTIONS = 3;
/**
 * Longest pause between two animation frames while flooding. Measured at
 * the same loads: 67-200 ms, once 817 ms (during `cat`, cause not found
 * yet); a page that stops drawing for a second is frozen.
 */
const FRAME_GAP_MS = 1000;
/**
 * History scrolled into view during a flood shows rows within this long.
 * The flood trims the oldest lines, so new history moves into view every
 * frame; the renderer draws what is in view in that frame
 * (RowGrid.showRange). Measured 0-3 ms; it was 0 ms to over 5 s before.
 */
const HISTORY_DRAWN_MS = STALL_MS;
/** How long the page is watched while flooding. */
const WATCH_MS = 2000;

const PROMPT = "PROMPT$";
const ENV = {
  PS1: `${PROMPT} `,
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
  DOMTERM_SHELL_INTEGRATION: "0",
};

/** A realistic text file of at least `bytes`: log lines, `ls -l` lines, long lines, CJK. */
async function makeBigFile(path: string, bytes: number): Promise<void> {
  // The streams of the end-to-end benchmark in turn, 4 MB each: log
  // lines, coloured `ls -l` lines, long wrapping lines, CJK and emoji
  // (not `yes`: that one is a command the driver runs).
  const blocks = E2E_STREAMS.filter((s) => !s.command).map((s) =>
    s.block(4 * 1000 * 1000)
  );
  using f = await Deno.open(path, { write: true, create: true });
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const b = blocks[i % blocks.length];
    let off = 0;
    while (off < b.length) off += await f.write(b.subarray(off));
    written += b.length;
  }
}

/** In-page probes: frame gaps, wheel -> scroll, mousedown -> selectionchange, Ctrl-C -> prompt. */
function installProbes(page: Page): Promise<void> {
  return page.evaluate((prompt) => {
    const p = {
      frames: [] as number[],
      watching: false,
      wheelAt: 0,
      scrollAfterWheel: -1,
      downAt: 0,
      selectAfterDown: -1,
      ctrlCAt: 0,
      promptAfterCtrlC: -1,
    };
    Object.assign(globalThis, { floodProbe: p });
    const frame = (t: number) => {
      if (p.watching) p.frames.push(t);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    addEventListener("wheel", () => {
      p.wheelAt = performance.now();
      p.scrollAfterWheel = -1;
    }, { capture: true, passive: true });
    document.addEventListener("scroll", () => {
      if (p.wheelAt && p.scrollAfterWheel < 0) {
        p.scrollAfterWheel = performance.now() - p.wheelAt;
      }
    }, { capture: true, passive: true });
    addEventListener("mousedown", () => {
      p.downAt = performance.now();
      p.selectAfterDown = -1;
    }, { capture: true });
    document.addEventListener("selectionchange", () => {
      if (p.downAt && p.selectAfterDown < 0) {
        p.selectAfterDown = performance.now() - p.downAt;
      }
    });
    addEventListener("keydown", (e) => {
      if (e.ctrlKey && e.key === "c") {
        p.ctrlCAt = performance.now();
        p.promptAfterCtrlC = -1;
      }
    }, { capture: true });
    const rowsEl = document.querySelector("#terminal .dt-viewport")!;
    type View = {
      term: {
        rows: number;
        cursorY: number;
        buffer: { length: number };
      };
      renderer: { rowElement(i: number): HTMLElement | undefined };
    };
    const dt = (globalThis as unknown as Inspected).domtermInspect;
    const check = () => {
      if (!p.ctrlCAt || p.promptAfterCtrlC >= 0) return;
      // The prompt is on the cursor's row.
      const t = dt.term;
      const row = dt.rowElement(
        t.buffer.length - t.rows + t.cursorY,
      );
      if ((row?.textContent ?? "").trim() === prompt) {
        p.promptAfterCtrlC = performance.now() - p.ctrlCAt;
      }
    };
    new MutationObserver(check).observe(rowsEl, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  }, PROMPT);
}

/** Ctrl-C samples per program; their median must be under CTRL_C_MS. */
const CTRL_C_TRIES = 3;
/** Any one Ctrl-C to prompt, at most: longer is a stall. */
const CTRL_C_STALL_MS = 1000;

/** Start `cmd` again, let it flood for a second, Ctrl-C: ms to the prompt. */
async function floodThenCtrlC(page: Page, cmd: string): Promise<number> {
  const lines = () =>
    page.evaluate(() => {
      const b = (globalThis as unknown as Inspected).domtermInspect.term.buffer;
      return b.trimmed + b.length;
    });
  const before = await lines();
  await page.keyboard.type(cmd);
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    (n) => {
      const b = (globalThis as unknown as Inspected).domtermInspect.term.buffer;
      return b.trimmed + b.length > n + 200;
    },
    before,
    { timeout: 20_000 },
  );
  await new Promise((r) => setTimeout(r, 1000));
  await page.keyboard.press("Control+c");
  await page.waitForFunction(
    () =>
      (globalThis as unknown as { floodProbe: Probe }).floodProbe
        .promptAfterCtrlC >= 0,
    undefined,
    { timeout: 20_000 },
  );
  return (await probe(page)).promptAfterCtrlC;
}

type Probe = {
  frames: number[];
  watching: boolean;
  scrollAfterWheel: number;
  selectAfterDown: number;
  promptAfterCtrlC: number;
};
const probe = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { floodProbe: Probe }).floodProbe
  );

Deno.test("flood: the page stays responsive and Ctrl-C stops yes, base64 and cat within 300 ms", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-flood-" });
  const big = `${dir}/big.txt`;
  const t0 = performance.now();
  await makeBigFile(big, BIG_FILE_BYTES);
  console.log(
    `  made ${BIG_FILE_BYTES / 1e6} MB file in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s`,
  );
  const run = await startDomterm(["bash", "--norc", "--noprofile", "-i"], {
    env: ENV,
    viewport: { width: 1000, height: 600 },
  });
  const { page } = run;
  try {
    await waitForRow(page, PROMPT);
    await installProbes(page);
    for (const cmd of ["yes", "base64 /dev/urandom", `cat ${big}`]) {
      await t.step(cmd.split(" ")[0], async () => {
        await page.keyboard.type(cmd);
        await page.keyboard.press("Enter");
        // Flooding: over 200 lines of the command's output came, and the
        // screen shows rows. (Not "200 rows drawn": while a flood is
        // followed, the history above the screen is left undrawn.)
        await page.waitForFunction(
          () => {
            const b =
              (globalThis as unknown as Inspected).domtermInspect.term.buffer;
            return b.trimmed + b.length > 200 &&
              document.querySelectorAll("#terminal .dt-row").length > 10;
          },
          undefined,
          { timeout: 20_000 },
        );
        // Frames while flooding.
        await page.evaluate(() => {
          const p = (globalThis as unknown as { floodProbe: Probe })
            .floodProbe;
          p.frames = [];
          p.watching = true;
        });
        await new Promise((r) => setTimeout(r, WATCH_MS));
        // The wheel (scrolls back into the history) and a mouse selection.
        const box = (await page.locator("#terminal").boundingBox())!;
        await page.mouse.move(box.x + 200, box.y + 200);
        // Three turns of the wheel: the median is what a user feels.
        const wheels: number[] = [];
        for (let i = 0; i < SELECTIONS; i++) {
          await page.mouse.wheel(0, -600);
          await page.waitForFunction(
            () =>
              (globalThis as unknown as { floodProbe: Probe }).floodProbe
                .scrollAfterWheel >= 0,
            undefined,
            { timeout: 10_000 },
          );
          wheels.push((await probe(page)).scrollAfterWheel);
        }
        const wheelMedian = wheels.slice().sort((a, b) => a - b)[
          wheels.length >> 1
        ];
        // Selections: three drags, each from a different row. One sample is
        // at the mercy of one long frame; the median is what a user feels.
        const selections: number[] = [];
        for (let i = 0; i < SELECTIONS; i++) {
          await page.evaluate(() => getSelection()?.removeAllRanges());
          await page.mouse.move(box.x + 200, box.y + 200 + 20 * i);
          await page.mouse.down();
          await page.mouse.move(box.x + 400, box.y + 260 + 20 * i, {
            steps: 3,
          });
          await page.mouse.up();
          await page.waitForFunction(
            () =>
              (globalThis as unknown as { floodProbe: Probe }).floodProbe
                .selectAfterDown >= 0,
            undefined,
            { timeout: 10_000 },
          );
          selections.push((await probe(page)).selectAfterDown);
        }
        selections.sort((a, b) => a - b);
        const selectMedian = selections[selections.length >> 1];
        const p1 = await probe(page);
        await page.evaluate(() => {
          (globalThis as unknown as { floodProbe: Probe }).floodProbe
            .watching = false;
        });
        const gaps = p1.frames.slice(1).map((f, i) => f - p1.frames[i]);
        const maxGap = Math.max(...gaps);
        // The history scrolled into view is drawn (not left blank) soon.
        const drawnAfter = await page.evaluate(async () => {
          const vp = document.querySelector("#terminal .dt-viewport")!;
          const t0 = performance.now();
          for (;;) {
            const r = vp.getBoundingClientRect();
            const el = document.elementFromPoint(r.left + 20, r.top + 40);
            if (el?.closest(".dt-row")) return performance.now() - t0;
            if (performance.now() - t0 > 5000) return Infinity;
            await new Promise((ok) => requestAnimationFrame(ok));
          }
        });

        // Ctrl-C, as a real key press.
        await page.keyboard.press("Control+c");
        await page.waitForFunction(
          () =>
            (globalThis as unknown as { floodProbe: Probe }).floodProbe
              .promptAfterCtrlC >= 0,
          undefined,
          { timeout: 20_000 },
        ).catch(async () => {
          throw new Error(
            `no prompt after Ctrl-C: ${
              JSON.stringify((await rowTexts(page)).slice(-5))
            }`,
          );
        });
        const first = (await probe(page)).promptAfterCtrlC;
        // Two more floods, each stopped after a second: the median of the
        // three is what a user feels (one sample is at the mercy of one
        // long frame: 64-251 ms for cat on a quiet machine, 350 once in a
        // full run).
        const ctrlC = [first];
        for (let k = 1; k < CTRL_C_TRIES; k++) {
          ctrlC.push(await floodThenCtrlC(page, cmd));
        }
        const ms = ctrlC.slice().sort((a, b) => a - b)[ctrlC.length >> 1];
        console.log(
          `  ${
            cmd.split(" ")[0]
          }: ${p1.frames.length} frames in ${WATCH_MS} ms, ` +
            `longest gap ${maxGap.toFixed(0)} ms; wheel -> scroll ${
              wheels.map((x) => x.toFixed(0)).join("/")
            } ms; mousedown -> selection ${
              selections.map((x) => x.toFixed(0)).join("/")
            } ms; history in view drawn within ${
              drawnAfter.toFixed(0)
            } ms; Ctrl-C -> prompt ${
              ctrlC.map((x) => x.toFixed(0)).join("/")
            } ms`,
        );
        // The flood stopped: nothing arrives after the prompt.
        await new Promise((r) => setTimeout(r, 500));
        const tail = (await rowTexts(page)).filter((s) => s !== "");
        assert(
          tail[tail.length - 1] === PROMPT,
          `the prompt stays last: ${JSON.stringify(tail.slice(-3))}`,
        );
        assert(
          drawnAfter < HISTORY_DRAWN_MS,
          `history in view drawn after ${drawnAfter} ms`,
        );
        assert(maxGap < FRAME_GAP_MS, `longest frame gap ${maxGap} ms`);
        assert(
          wheelMedian < STALL_MS,
          `wheel answered in ${wheels.join(", ")} ms`,
        );
        assert(
          Math.max(...wheels) < FRAME_GAP_MS,
          `a wheel turn waited ${wheels.join(", ")} ms`,
        );
        assert(
          selectMedian < STALL_MS,
          `selection answered in ${selections.join(", ")} ms`,
        );
        assert(
          selections[selections.length - 1] < FRAME_GAP_MS,
          `a selection waited ${selections.join(", ")} ms`,
        );
        assert(ms < CTRL_C_MS, `Ctrl-C -> prompt took ${ctrlC.join(", ")} ms`);
        assert(
          Math.max(...ctrlC) < CTRL_C_STALL_MS,
          `a Ctrl-C waited ${ctrlC.join(", ")} ms`,
        );
        // Clear the selection for the next round.
        await page.evaluate(() => getSelection()?.removeAllRanges());
      });
    }
  } finally {
    await run.close();
    await Deno.remove(dir, { recursive: true });
  }
});
