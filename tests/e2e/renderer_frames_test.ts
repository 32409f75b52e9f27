/**
 * The renderer's frame spacing during a flood, in a real headless
 * Chromium (the harness of renderer_page.ts): it counts frames in 1.5 s,
 * so the suite runs this file alone (scripts/run_tests.ts SERIAL_FILES);
 * the rest of the renderer's tests are in renderer_test.ts.
 */
import { assert } from "../assert.ts";
import { withPage } from "./renderer_page.ts";

Deno.test("renderer: following a flood, costly frames are spaced by their cost, cheap ones come 20 a second", async () => {
  await withPage(
    async ({ page }) => {
      const renders = await page.evaluate(async () => {
        const { t, r } = dt.real(80, 24, 1000);
        const lines = Array.from({ length: 200 }, (_, i) => `line ${i}\r\n`)
          .join("");
        /** Renders during 1.5 s of flooding, each made to cost `ms`. */
        const flood = async (ms: number) => {
          let n = 0;
          r.onRender = () => {
            n++;
            const end = performance.now() + ms;
            while (performance.now() < end) { /* a costly frame */ }
          };
          const t0 = performance.now();
          // Output comes as the page's connection hands it on: in tasks
          // (message-channel posts) between which frames get their turn.
          const ch = new MessageChannel();
          const next = () =>
            new Promise((ok) => {
              ch.port1.onmessage = ok;
              ch.port2.postMessage(0);
            });
          while (performance.now() - t0 < 1500) {
            t.write(lines);
            r.schedule();
            await next();
          }
          r.onRender = null;
          // Let the flood end (a quiet frame resets the measured cost).
          await new Promise((ok) => setTimeout(ok, 200));
          return n;
        };
        return { cheap: await flood(0), costly: await flood(40) };
      });
      // Cheap: about 1500 / 50 ms. Costly (40 ms each): at least 160 ms
      // apart (a quarter of the time drawing), so about 1500 / 160; a fixed
      // 50 ms cap would give about 1500 / 50.
      assert(renders.cheap >= 15, JSON.stringify(renders));
      assert(
        renders.costly >= 3 && renders.costly <= 14,
        JSON.stringify(renders),
      );
    },
    undefined,
    1,
    true,
  );
});
