/**
 * What the output announcer (client/a11y/output_announcer.ts) costs during
 * a flood: the real domterm and bash in headless Chromium print
 * `seq 1 N` (default 300,000 lines); the page reports the frames drawn,
 * the announcer's model reads (timer ticks), their total time, and the
 * announcements made; then the time of 1,000,000 calls of its frame
 * callback (the only work it adds to a frame).
 *
 * Run: `deno run -A bench/a11y_bench.ts [--lines N]`. Figures in
 * docs/accessibility.md.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startDomterm, waitForRow } from "../tests/e2e/domterm.ts";
import type { Inspected } from "../client/inspect.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { lines: { type: "string", default: "300000" } },
});
const lines = Number(values.lines);
const dir = await Deno.makeTempDir({ prefix: "domterm-a11y-bench-" });
await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
const t = await startDomterm(["bash"], {
  env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
  viewport: { width: 1000, height: 600 },
});
try {
  const { page } = t;
  await waitForRow(page, "$");
  const stats = () =>
    page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.a11y()
    );
  const before = await stats();
  const start = Date.now();
  await page.keyboard.type(`seq 1 ${lines}`);
  await page.keyboard.press("Enter");
  await waitForRow(page, String(lines), 300_000);
  const ms = Date.now() - start;
  await page.waitForTimeout(1500); // the last announcement
  const after = await stats();
  const calls = 1_000_000;
  const callMs = await page.evaluate(
    (n) =>
      (globalThis as unknown as Inspected).domtermInspect.a11yFrameCallMs(n),
    calls,
  );
  const d = (k: keyof typeof after) => after[k] - before[k];
  console.log(
    `seq 1 ${lines}: ${ms} ms to the last line; ${d("frames")} frames; ` +
      `announcer: ${d("ticks")} model reads, ${
        d("tickMs").toFixed(2)
      } ms in all (longest ${after.maxTickMs.toFixed(2)} ms), ${
        d("announcements")
      } announcements; ` +
      `frame callback: ${(callMs / calls * 1e6).toFixed(1)} ns a call`,
  );
} finally {
  await t.close();
}
