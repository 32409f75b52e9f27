/**
 * Paste benchmark (issue 31): the real `domterm --no-browser` server, bash
 * on a real PTY, the real page in headless Chromium. Pastes text of lines
 * of 64 bytes (63 characters and a newline) into `wc -l` in automatic mode
 * (the local line editor's default: `wc` reads lines, the terminal is
 * canonical) and in character mode, then Ctrl+D, and clocks from the paste
 * to the moment the page shows `wc`'s count. Meanwhile the page is asked a
 * trivial `page.evaluate` every 50 ms: the slowest answer shows whether it
 * stayed responsive.
 *
 * Run: `deno run -A bench/paste_bench.ts [--kib 100,1024] [--mode auto,char]
 * [--main PATH]` (`--main`: another checkout's main.ts, its client built, for
 * a before/after comparison).
 * Prints seconds per size and mode, the slowest evaluate, and the ratio
 * automatic / character. Fails if a count never shows.
 *
 * Measured (2 cores shared with other jobs, load average 25-35, so the
 * absolute times are inflated): before (`--main` at 07c904b), 100 KiB took
 * 200.0 s in automatic mode and 1.49 s in character mode (ratio 134.6),
 * every line of the paste a round trip through the editor. After (a paste
 * too large for one message goes in bulk): 100 KiB 2.13 s / 1.59 s (1.34),
 * 1 MiB 6.08 s / 5.40 s (1.13). The slowest evaluate during these runs
 * (0.3-3.8 s at 1 MiB) is the same in both modes: drawing the tty's echo
 * under that load, not the paste (tests/e2e/paste_test.ts measures the
 * paste's own path with echo off: under 200 ms).
 *
 * With the paste paced (at most 64 KiB of pieces unanswered by the server,
 * so that Ctrl+C never waits behind the whole paste), 2026-12-07 under a
 * load average of about 40: 1 MiB 8.67 s automatic / 6.18 s character
 * (1.40), slowest evaluate 1.9 s / 2.2 s (drawing the echo, both modes).
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import type { Inspected } from "../client/inspect.ts";
import { startDomterm, waitForRow } from "../tests/e2e/domterm.ts";

const LINE = 64;

/** `n` lines of 63 characters and a newline, each different. */
export function pasteText(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(`line ${i} `.padEnd(LINE - 1, "abcdefghij"[i % 10]) + "\n");
  }
  return out.join("");
}

type DomtermGlobal = Inspected;

/** The slowest of trivial evaluates, every 50 ms, until `stop()`. */
function probe(page: Page): { stop(): Promise<number> } {
  let running = true;
  let worst = 0;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      await page.evaluate(() => 1);
      worst = Math.max(worst, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return worst;
    },
  };
}

export interface PasteRun {
  seconds: number;
  worstEvaluateMs: number;
}

/** One paste of `kib` KiB into `wc -l` in `mode`, on an open page running bash. */
export async function pasteIntoWc(
  page: Page,
  mode: string,
  kib: number,
  tag: string,
): Promise<PasteRun> {
  const lines = kib * 1024 / LINE;
  const text = pasteText(lines);
  await page.evaluate(
    (m) =>
      (globalThis as unknown as DomtermGlobal).domtermInspect.setInputMode(
        m as "auto" | "char" | "line" | "pipe",
      ),
    mode,
  );
  await page.keyboard.type(`echo READY-${tag}; wc -l | sed 's/^/${tag} /'`);
  await page.keyboard.press("Enter");
  await waitForRow(page, `READY-${tag}`);
  await page.waitForTimeout(300); // wc has the terminal (canonical)
  const p = probe(page);
  const t0 = performance.now();
  await page.evaluate(
    (t) => (globalThis as unknown as DomtermGlobal).domtermInspect.paste(t),
    text,
  );
  await page.keyboard.press("Control+d");
  await waitForRow(page, `${tag} ${lines}`, 600_000);
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, worstEvaluateMs: await p.stop() };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      kib: { type: "string", default: "100,1024" },
      mode: { type: "string", default: "auto,char" },
      main: { type: "string" },
    },
  });
  const sizes = values.kib.split(",").map(Number);
  const modes = values.mode.split(",");
  const t = await startDomterm(["bash", "--norc", "--noprofile", "-i"], {
    env: { PS1: "$ ", INPUTRC: "/dev/null" },
    main: values.main,
  });
  const results = new Map<string, number>();
  try {
    await waitForRow(t.page, "$");
    let n = 0;
    for (const kib of sizes) {
      for (const mode of modes) {
        const r = await pasteIntoWc(t.page, mode, kib, `R${++n}`);
        results.set(`${kib}/${mode}`, r.seconds);
        console.log(
          `${kib} KiB, ${mode} mode: ${r.seconds.toFixed(2)} s ` +
            `(slowest evaluate meanwhile: ${r.worstEvaluateMs.toFixed(0)} ms)`,
        );
      }
      const a = results.get(`${kib}/auto`), c = results.get(`${kib}/char`);
      if (a !== undefined && c !== undefined) {
        console.log(
          `${kib} KiB: automatic / character = ${(a / c).toFixed(2)}`,
        );
      }
    }
  } finally {
    await t.close();
  }
}
