/**
 * Four panes in one window (issue 33's cost figures), in headless Chromium
 * against the real server:
 *
 * - key to echo in one pane, the other three idle, then while the other
 *   three flood with `yes` (the target: within 2x);
 * - all four flooding: Ctrl+C in each, from the key to its prompt drawn
 *   (the target: under 300 ms).
 *
 * Times are the page's: from the keydown event to the DOM holding the
 * echo (or the prompt). Run: `deno run -A bench/panes_bench.ts [--keys N]
 * [--main PATH] [--probe]` (`--main`: another checkout's main.ts, e.g. the
 * code before a change, to compare on the same machine at the same load;
 * `--probe`: while the three panes flood, a WebSocket client of this
 * process (bench/many_sessions_typist.ts, in a worker) types into a session
 * of its own too: its echo, late as the page's, puts the time in the
 * server, not in the browser; `--trace`: the server notes each key's way
 * through it, server/echo_trace.ts, and the bench prints each step of the
 * echoes while the three panes flood: the page's keys, and the probe's
 * from its send to its receive).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { launchChromium } from "../tests/e2e/chromium.ts";
import { spawnServer } from "../tests/e2e/domterm.ts";
import type { Inspected } from "../client/inspect.ts";
import { panes } from "../core/layout.ts";
import { echoStages } from "./echo_trace_report.ts";

const KEYS = Number(
  Deno.args[Deno.args.indexOf("--keys") + 1] ?? "",
) || 40;
/** `--main PATH`: the server of another checkout (to compare with the code before). */
const MAIN = Deno.args.includes("--main")
  ? Deno.args[Deno.args.indexOf("--main") + 1]
  : undefined;
const PROBE = Deno.args.includes("--probe");
const TRACE = Deno.args.includes("--trace")
  ? Deno.makeTempFileSync({ prefix: "domterm-echo-trace-" })
  : null;

/** What the probe measured: each key's latency (ms), and its send and receive times on the trace's clock. */
interface Probed {
  latencies: number[];
  times: [number, number][];
}

/** bench/many_sessions_typist.ts on a new session of the server at `url`; `stop()` gives what it measured. */
async function probe(url: string): Promise<{ stop(): Promise<Probed> }> {
  const w = new Worker(
    new URL("./many_sessions_typist.ts", import.meta.url),
    { type: "module" },
  );
  const started = Promise.withResolvers<void>();
  const done = Promise.withResolvers<Probed>();
  w.onmessage = (ev) => {
    if (ev.data.started) started.resolve();
    else done.resolve(ev.data);
  };
  w.postMessage({ url });
  await started.promise;
  return {
    async stop() {
      w.postMessage("stop");
      const probed = await done.promise;
      w.terminate();
      return probed;
    },
  };
}

function median(xs: number[]): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function pct(xs: number[], p: number): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

async function action(page: Page, name: string, count: number) {
  await page.evaluate(
    (name) =>
      (globalThis as unknown as Inspected).domtermInspect.runAction(name),
    name,
  );
  await page.waitForFunction(
    (n) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      if (d.views() !== n) return false;
      for (let i = 0; i < n; i++) if (!d.view(i).connected) return false;
      return true;
    },
    count,
    { timeout: 20_000 },
  );
}

async function focusPane(page: Page, pane: number) {
  const box = (await page.locator(`.dt-pane[data-pane="${pane}"]`)
    .boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(
    (pane) =>
      (globalThis as unknown as Inspected).domtermInspect.layout()!.focus ===
        pane && document.activeElement?.closest(".dt-pane")?.getAttribute(
          "data-pane",
        ) === String(pane),
    pane,
  );
}

/** Installs the page's stopwatch: keydown time to a DOM change that `done` accepts. */
function installStopwatch(page: Page) {
  return page.evaluate(() => {
    const w = globalThis as unknown as {
      __t0: number;
      __small: number[];
      __arrived: number;
      __keySent: number[];
      __sent: number;
      __wait: (pane: number, text: string, last: boolean) => Promise<number>;
    };
    addEventListener("keydown", () => w.__t0 = performance.now(), {
      capture: true,
    });
    w.__wait = (pane, text, last) =>
      new Promise((resolve) => {
        // Never seen within 10 s: NaN.
        setTimeout(() => resolve(NaN), 10_000);
        const el = document.querySelector(`.dt-pane[data-pane="${pane}"]`)!;
        const ok = () => {
          const rows = [...el.querySelectorAll(".dt-row")].map((r) =>
            (r.textContent ?? "").trimEnd()
          ).filter((r) => r !== "");
          return last
            ? rows.at(-1) === text
            : rows.some((r) => r.endsWith(text));
        };
        const obs = new MutationObserver(() => {
          if (!ok()) return;
          obs.disconnect();
          // The first small frame after the key: its echo (or prompt).
          const t = w.__small.find((t) => t >= w.__t0);
          w.__arrived = t === undefined ? NaN : t - w.__t0;
          w.__small.length = 0;
          // When the key's bytes went out on the socket.
          const s = w.__keySent.find((t) => t >= w.__t0);
          w.__sent = s === undefined ? NaN : s - w.__t0;
          w.__keySent.length = 0;
          resolve(performance.now() - w.__t0);
        });
        obs.observe(el, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      });
  });
}

/**
 * The page's main thread while `during` runs: how late a task posted every
 * 10 ms ran (median, p90, max ms). Small while the echo arrives late: the
 * time went outside the page (the server, the machine).
 */
async function mainThreadLag(page: Page, during: () => Promise<unknown>) {
  await page.evaluate(() => {
    const w = globalThis as unknown as { __lag: number[]; __lagOn: boolean };
    w.__lag = [];
    w.__lagOn = true;
    const { port1, port2 } = new MessageChannel();
    let sent = 0;
    port1.onmessage = () => {
      w.__lag.push(performance.now() - sent);
      if (w.__lagOn) setTimeout(ping, 10);
    };
    const ping = () => {
      sent = performance.now();
      port2.postMessage(0);
    };
    ping();
  });
  await during();
  const lag = await page.evaluate(() => {
    const w = globalThis as unknown as { __lag: number[]; __lagOn: boolean };
    w.__lagOn = false;
    return w.__lag;
  });
  return { median: median(lag), p90: pct(lag, 0.9), max: Math.max(...lag) };
}

/** When the last awaited change's frame arrived, ms after the key. */
function arrivedMs(page: Page): Promise<number> {
  return page.evaluate(() =>
    (globalThis as unknown as { __arrived: number }).__arrived
  );
}

/** When the last key's bytes went out on the page's socket, ms after the key. */
function sentMs(page: Page): Promise<number> {
  return page.evaluate(() =>
    (globalThis as unknown as { __sent: number }).__sent
  );
}

/** Key to echo for `n` letters typed into pane `pane` (focused). */
async function keyToEcho(page: Page, pane: number, n: number) {
  const out: number[] = [];
  const arrived: number[] = [];
  const sent: number[] = [];
  let typed = "echo ";
  await page.keyboard.type(typed);
  await page.waitForTimeout(200);
  for (let i = 0; i < n; i++) {
    const ch = "abcdefghijklmnopqrstuvwxyz"[i % 26];
    typed += ch;
    const wait = page.evaluate(
      ({ pane, typed }) =>
        (globalThis as unknown as {
          __wait: (p: number, t: string, l: boolean) => Promise<number>;
        }).__wait(pane, typed, false),
      { pane, typed },
    );
    await page.waitForTimeout(5);
    await page.keyboard.press(ch);
    out.push(await wait);
    arrived.push(await arrivedMs(page));
    sent.push(await sentMs(page));
    await page.waitForTimeout(30);
  }
  await page.keyboard.press("Control+c");
  return { out, arrived, sent };
}

// Another checkout's server serves that checkout's page (static/gen of
// it must be built: `deno task build` there).
const { child, url } = await spawnServer(
  ["--", "sh"],
  { PS1: "$ ", ENV: "", ...(TRACE ? { DOMTERM_ECHO_TRACE: TRACE } : {}) },
  MAIN,
);
const browser = await launchChromium();
try {
  const page = await browser.newPage({
    viewport: { width: 1200, height: 800 },
  });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  page.on("close", () => console.error("the page closed"));
  // The arrival of small binary frames (an echo, a prompt; a flood comes
  // in large ones): splits key to echo into the server's part and the
  // page's.
  await page.addInitScript(() => {
    const w = globalThis as unknown as {
      __small: number[];
      __keySent: number[];
    };
    w.__small = [];
    w.__keySent = [];
    const Ws = WebSocket;
    class Timed extends Ws {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener("message", (ev) => {
          const d = (ev as MessageEvent).data;
          if (typeof d !== "string" && (d as ArrayBuffer).byteLength < 256) {
            w.__small.push(performance.now());
          }
        });
      }
    }
    // The key's bytes leaving the page (small binary frames: a key, not
    // a paste).
    const send = Ws.prototype.send;
    Ws.prototype.send = function (
      this: WebSocket,
      data: Parameters<WebSocket["send"]>[0],
    ) {
      if (typeof data !== "string" && !(data instanceof Blob)) {
        if (data.byteLength < 16) w.__keySent.push(performance.now());
      }
      return send.call(this, data);
    };
    globalThis.WebSocket = Timed;
  });
  await page.goto(url);
  await page.waitForFunction(() =>
    "domtermInspect" in globalThis &&
    (globalThis as unknown as Inspected).domtermInspect.connected
  );
  // Four panes: two columns of two.
  await action(page, "split-right", 2);
  await action(page, "split-down", 3);
  let layout = await page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.layout()!
  );
  await focusPane(page, panes(layout)[0].id);
  await action(page, "split-down", 4);
  layout = await page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.layout()!
  );
  const ids = panes(layout).map((p) => p.id);
  // Keys straight to the program, which echoes them (not the page's line
  // editor, which would draw them itself).
  await page.evaluate(() => {
    const d = (globalThis as unknown as Inspected).domtermInspect;
    for (let i = 0; i < d.views(); i++) d.view(i).setInputMode("char");
  });
  await installStopwatch(page);

  const typist = ids[0];
  await focusPane(page, typist);
  const idleRun = await keyToEcho(page, typist, KEYS);
  const idle = idleRun.out;

  for (const p of ids.slice(1)) {
    await focusPane(page, p);
    await page.keyboard.type("yes\n");
  }
  await page.waitForTimeout(1500);
  await focusPane(page, typist);
  const prober = PROBE ? await probe(url) : null;
  let floodRun = {
    out: [] as number[],
    arrived: [] as number[],
    sent: [] as number[],
  };
  // Only the echoes while the three panes flood are traced.
  if (TRACE) Deno.writeTextFileSync(TRACE, "");
  const lag = await mainThreadLag(page, async () => {
    floodRun = await keyToEcho(page, typist, KEYS);
  });
  const traced = TRACE ? Deno.readTextFileSync(TRACE) : "";
  const flooded = floodRun.out;
  const probed = await prober?.stop();

  // All four flood; Ctrl+C in each.
  await page.keyboard.type("yes\n");
  await page.waitForTimeout(1500);
  const ctrlC: number[] = [];
  const ctrlCArrived: number[] = [];
  for (const p of ids) {
    await focusPane(page, p);
    await page.waitForTimeout(300);
    const wait = page.evaluate(
      (pane) =>
        (globalThis as unknown as {
          __wait: (p: number, t: string, l: boolean) => Promise<number>;
        }).__wait(pane, "$", true),
      p,
    );
    await page.keyboard.press("Control+c");
    ctrlC.push(await wait);
    ctrlCArrived.push(await arrivedMs(page));
  }
  const f = (x: number) => x.toFixed(1);
  console.log(
    `key to echo, other panes idle:     median ${f(median(idle))} ms, p90 ${
      f(pct(idle, 0.9))
    } ms (${idle.length} keys)`,
  );
  console.log(
    `key to echo, three panes flooding: median ${f(median(flooded))} ms, p90 ${
      f(pct(flooded, 0.9))
    } ms (${flooded.length} keys); ratio of medians ${
      (median(flooded) / median(idle)).toFixed(2)
    }`,
  );
  console.log(
    `  of which the frame reached the page: idle median ${
      f(median(idleRun.arrived))
    } ms, flooding median ${f(median(floodRun.arrived))} ms, p90 ${
      f(pct(floodRun.arrived, 0.9))
    } ms`,
  );
  // The page's own part: from the echo's frame arriving to its DOM change.
  const pagePart = (r: { out: number[]; arrived: number[] }) =>
    r.out.map((t, i) => t - r.arrived[i]);
  console.log(
    `  of which the page (frame arrived to echo drawn): idle median ${
      f(median(pagePart(idleRun)))
    } ms, flooding median ${f(median(pagePart(floodRun)))} ms, p90 ${
      f(pct(pagePart(floodRun), 0.9))
    } ms`,
  );
  console.log(
    `  the key's bytes left the page's socket: idle median ${
      f(median(idleRun.sent))
    } ms, flooding median ${f(median(floodRun.sent))} ms, p90 ${
      f(pct(floodRun.sent, 0.9))
    } ms (from there to the echo's arrival: the socket both ways, the server, the program)`,
  );
  if (probed) {
    const { latencies } = probed;
    console.log(
      `  a WebSocket client of this process typing into another session meanwhile: echo median ${
        f(median(latencies))
      } ms, p90 ${f(pct(latencies, 0.9))} ms (${latencies.length} keys)`,
    );
  }
  if (TRACE) {
    Deno.writeTextFileSync(TRACE, traced);
    console.log(echoStages(TRACE));
    if (probed) console.log(echoStages(TRACE, probed.times));
  }
  console.log(
    `  the page's main thread meanwhile: a task posted ran late by median ${
      f(lag.median)
    } ms, p90 ${f(lag.p90)} ms, max ${f(lag.max)} ms`,
  );
  console.log(
    `Ctrl+C to prompt, four panes flooding: ${
      ctrlC.map(f).join(", ")
    } ms (max ${
      f(Math.max(...ctrlC))
    }); a small frame after it reached the page at ${
      ctrlCArrived.map(f).join(", ")
    } ms`,
  );
} finally {
  await browser.close();
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  await child.status;
  if (TRACE) Deno.removeSync(TRACE);
}
