/**
 * Predictive echo over a slow link: a TCP proxy adds 50 ms each way (100 ms
 * round trip) between Chromium and the real server; bash's readline (raw
 * mode, character input) echoes. The key-to-visible time is measured in the
 * page, from keydown to the character being on screen (in a row, or as a
 * prediction), with predictions off and on. Every figure is printed.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { launchChromium } from "./chromium.ts";
import { spawnServer, startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const ONE_WAY_MS = 50;

/** A TCP proxy that delays every chunk by `delay` ms, each way, in order. */
function latencyProxy(
  target: number,
  delay: number,
): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const conns: Deno.Conn[] = [];
  const pipe = async (
    from: Deno.Conn,
    to: Deno.Conn,
    rewrite: boolean,
  ) => {
    let chain = Promise.resolve();
    const buf = new Uint8Array(64 * 1024);
    try {
      while (true) {
        const n = await from.read(buf);
        if (n === null) break;
        let chunk = buf.slice(0, n);
        if (rewrite) {
          // The server checks Host and Origin: they name the proxy's port.
          const text = new TextDecoder("latin1").decode(chunk);
          if (text.includes(`127.0.0.1:${port}`)) {
            const fixed = text.replaceAll(
              `127.0.0.1:${port}`,
              `127.0.0.1:${target}`,
            );
            chunk = Uint8Array.from(fixed, (c) => c.charCodeAt(0));
          }
        }
        const due = performance.now() + delay;
        const data = chunk;
        chain = chain.then(async () => {
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          try {
            await to.write(data);
          } catch { /* closed */ }
        });
      }
    } catch { /* closed */ }
    await chain;
    try {
      await to.closeWrite();
    } catch { /* closed */ }
  };
  (async () => {
    try {
      for await (const client of listener) {
        const server = await Deno.connect({
          hostname: "127.0.0.1",
          port: target,
        });
        conns.push(client, server);
        void pipe(client, server, true);
        void pipe(server, client, false);
      }
    } catch { /* closed */ }
  })();
  return {
    port,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

/** Types `text` key by key; returns each key's keydown-to-visible time (ms). */
async function keyToVisible(page: Page, text: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const want = text.slice(0, i + 1);
    await page.evaluate((want) => {
      const g = globalThis as unknown as { __t: Promise<number> };
      g.__t = new Promise((resolve) => {
        addEventListener("keydown", () => {
          const t0 = performance.now();
          const check = () => {
            const rows = [...document.querySelectorAll("#terminal .dt-row")]
              .map((r) => (r.textContent ?? "").trimEnd());
            const pred = document.querySelector<HTMLElement>(".dt-predict");
            const extra = pred && !pred.hidden ? pred.textContent ?? "" : "";
            // What was typed after the prompt, drawn or predicted.
            const row = rows.find((r) => r.startsWith("$")) ?? "$";
            if (row.slice(1).trimStart() + extra === want) {
              resolve(performance.now() - t0);
            } else requestAnimationFrame(check);
          };
          check();
        }, { once: true, capture: true });
      });
    }, want);
    await page.keyboard.press(text[i]);
    times.push(
      await page.evaluate(() =>
        (globalThis as unknown as { __t: Promise<number> }).__t
      ),
    );
    // Let the echo arrive before the next key (one key at a time).
    await waitForRow(page, "$ " + want);
  }
  return times;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

Deno.test("e2e predictive echo: with 100 ms round trip, keys show at once with predictions on", async () => {
  const { child, url } = await spawnServer([
    "--",
    "bash",
    "--norc",
    "--noprofile",
    "-i",
  ], { PS1: "$ ", INPUTRC: "/dev/null", HOME: Deno.env.get("HOME") ?? "/tmp" });
  const serverPort = Number(new URL(url).port);
  const proxy = latencyProxy(serverPort, ONE_WAY_MS);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({
      viewport: { width: 800, height: 480 },
    });
    const proxied = url.replace(`:${serverPort}/`, `:${proxy.port}/`);
    await page.evaluate((u) => location.replace(u), proxied);
    await page.waitForFunction(() => "domtermInspect" in globalThis);
    await waitForRow(page, "$");

    const off = await keyToVisible(page, "echo");
    await page.keyboard.press("Control+u");
    await waitForRow(page, "$");
    await page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.setPredict("on")
    );
    const on = await keyToVisible(page, "echo");
    console.log(
      `key to visible, 100 ms round trip: predictions off ${
        off.map((t) => t.toFixed(0)).join(", ")
      } ms (median ${median(off).toFixed(0)}); on ${
        on.map((t) => t.toFixed(0)).join(", ")
      } ms (median ${median(on).toFixed(0)})`,
    );
    assert(median(off) >= 95, `without predictions the echo takes the trip`);
    assert(median(on) < 60, `with predictions the key shows at once`);
    // The echo confirmed them all: nothing tentative is left.
    await page.waitForFunction(() =>
      (document.querySelector<HTMLElement>(".dt-predict")?.hidden) ?? true
    );
  } finally {
    await browser.close();
    proxy.close();
    child.kill("SIGTERM");
    await child.status;
  }
});

Deno.test("e2e predictive echo: off, a key the program does not echo changes nothing on the page", async () => {
  // Any change makes the browser draw a frame at once; the echo that
  // follows 2-3 ms later would then wait for the next one (docs/benchmarks.md).
  const t = await startDomterm([
    "sh",
    "-c",
    "stty raw -echo; echo READY; cat >/dev/null",
  ]);
  try {
    await waitForRow(t.page, "READY");
    // A first key gives the window the focus (which does change classes),
    // and the server's answer about the terminal's modes (raw: no edit
    // line) settles the input mode: under load that took over 300 ms.
    await t.page.keyboard.press("x");
    await new Promise((r) => setTimeout(r, 1500));
    await t.page.evaluate(() => {
      const g = globalThis as unknown as { changes: string[] };
      g.changes = [];
      new MutationObserver((ms) => {
        for (const m of ms) {
          g.changes.push(
            `${m.type} ${(m.target as Element).className ?? m.target.nodeName}`,
          );
        }
      }).observe(document.documentElement, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    for (const key of ["a", "b", "Enter", "c"]) {
      await t.page.keyboard.press(key);
    }
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(
      await t.page.evaluate(() =>
        (globalThis as unknown as { changes: string[] }).changes
      ),
      [],
    );
  } finally {
    await t.close();
  }
});
