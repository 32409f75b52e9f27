/**
 * `domterm restart-server` in a real Chromium: a shell with a background
 * job and vim holding unsaved text, shown in two windows, and a flood in a
 * third session's window. After the restart the same processes run, vim
 * still has (and edits) its text, every window has reconnected by itself
 * with exactly the server's model (a model hash), and the flood's numbers
 * are all there, once each, in order. When the shell then exits, its
 * windows say so (status unknown: the new server is not its parent).
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { launchChromium } from "./chromium.ts";
import { openPage, waitForRow } from "./domterm.ts";
import { request, socketPath } from "../../server/control.ts";
import {
  Terminal,
  type TerminalSnapshot,
} from "../../core/emulator/terminal.ts";
import { modelDiff, modelHash } from "../../core/serialize/model_hash.ts";
import type { Inspected } from "../../client/inspect.ts";
import {
  domterm,
  type HandoverServer,
  running,
  serverPid,
  startHandoverServer,
  stopHandoverServer,
  waitFor,
} from "../handover_server.ts";

const LINES = 300_000;

function inspect<T>(page: Page, f: (d: Inspected["domtermInspect"]) => T) {
  return page.evaluate(
    `(${f.toString()})(globalThis.domtermInspect)`,
  ) as Promise<T>;
}

async function type(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/** The number printed after `tag=` once the shell ran `command`. */
async function shellNumber(
  page: Page,
  tag: string,
  command: string,
): Promise<number> {
  await type(page, command);
  const re = new RegExp(`^${tag}=(\\d+)$`);
  await waitFor(
    async () =>
      (await inspect(page, (d) => d.screenText())).some((l) =>
        /^[A-Z]+=\d+$/.test(l.trim()) && l.trim().startsWith(`${tag}=`)
      ),
    `${tag}=...`,
    30_000,
  );
  const rows = await inspect(page, (d) => d.screenText());
  return Number(re.exec(rows.find((l) => re.test(l.trim()))!.trim())![1]);
}

/** The page's model and the server's, once the page has all the server read. */
async function models(page: Page, s: HandoverServer, session: number) {
  // Polled every 20 ms (60 s in all).
  for (let i = 0; i < 3000; i++) {
    const res = await request(socketPath(s.dir), { op: "snapshot", session });
    const offset = await inspect(page, (d) => d.position().offset);
    if (res?.ok && offset === res.offset) {
      // The model with the offset it holds, read in one go: output that
      // came since the offset was read (vim moves its cursor once it knows
      // the Escape was a key) would be in the model but not the server's.
      const mine = JSON.parse(
        await inspect(page, (d) =>
          JSON.stringify({
            offset: d.position().offset,
            snapshot: d.term.snapshot(),
          })),
      ) as { offset: number; snapshot: TerminalSnapshot };
      if (mine.offset === res.offset) {
        return {
          offset: mine.offset,
          page: Terminal.restore(mine.snapshot),
          server: Terminal.restore(res.snapshot as TerminalSnapshot),
        };
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the page of session ${session} never caught up`);
}

/**
 * A page whose binary frames (the output stream) are recorded in
 * `globalThis.received`, over every socket it opens.
 */
async function openRecorded(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 800, height: 480 } });
  await page.addInitScript(() => {
    const g = globalThis as unknown as { received: Uint8Array[] };
    g.received = [];
    const Base = WebSocket;
    globalThis.WebSocket = class extends Base {
      constructor(u: string | URL, p?: string | string[]) {
        super(u, p);
        this.addEventListener("message", (e) => {
          if (typeof e.data !== "string") {
            g.received.push(new Uint8Array(e.data as ArrayBuffer).slice());
          }
        });
      }
    };
  });
  await page.goto(url);
  await page.waitForFunction(() =>
    "domtermInspect" in globalThis &&
    (globalThis as unknown as Inspected).domtermInspect.connected
  );
  return page;
}

function lines(t: Terminal): string[] {
  const buf = t.normalBuffer;
  const out: string[] = [];
  for (let i = 0; i < buf.length; i++) out.push(buf.getLine(i).toString(true));
  return out;
}

/** The pid of `parent`'s child named `comm`. */
function childNamed(parent: number, comm: string): number | null {
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const m = /^(\d+) \((.*)\) \S (\d+)/.exec(stat);
      if (m && m[2] === comm && Number(m[3]) === parent) return Number(m[1]);
    } catch { /* gone */ }
  }
  return null;
}

Deno.test("e2e restart-server: programs, vim's text, two windows and a flood all come through", async () => {
  const s = await startHandoverServer(["bash", "--norc", "--noprofile"], {
    PS1: "$ ",
  });
  const browser = await launchChromium();
  try {
    // Session A: a shell with a job and vim, in two windows.
    const a1 = await openPage(browser, s.url);
    const a = await inspect(a1, (d) => d.position().session as number);
    const shell = await shellNumber(a1, "SH", "echo SH=$$");
    const bg = await shellNumber(a1, "BG", "sleep 1000 & echo BG=$!");
    await type(a1, "vim -u NONE -N -n");
    await waitFor(() => childNamed(shell, "vim") !== null, "vim");
    const vim = childNamed(shell, "vim")!;
    await new Promise((r) => setTimeout(r, 500));
    await a1.keyboard.type("iunsaved text in vim");
    await a1.keyboard.press("Escape");
    await waitForRow(a1, "unsaved text in vim", 20_000);
    const url = new URL(s.url);
    url.hash += `&session=${a}`;
    const a2 = await openPage(browser, url.href);
    await waitForRow(a2, "unsaved text in vim", 20_000);
    // Session B: a flood, in a third window.
    const b1 = await openRecorded(browser, s.url);
    const b = await inspect(b1, (d) => d.position().session as number);
    // In bursts of 10,000 lines, so that the restart lands in the middle.
    await type(
      b1,
      `seq 1 ${LINES} | awk '{print} NR%10000==0{fflush(); system("sleep 0.3")}'`,
    );
    await waitFor(
      async () => await inspect(b1, (d) => d.position().offset) > 200_000,
      "the flood under way",
      60_000,
    );
    const oldPid = await serverPid(s);

    const out = await domterm(s, ["restart-server"]);
    const during = await inspect(b1, (d) => d.screenText());
    assert(!during.includes(String(LINES)), "the restart was mid-flood");
    assertEquals(out.code, 0, out.stderr);
    assertMatch(out.stderr, /2 sessions handed over/);
    assert((await serverPid(s)) !== oldPid, "a new server");
    for (const pid of [shell, bg, vim]) {
      assert(running(pid), `process ${pid} runs on`);
    }

    // Every window reconnects by itself; the flood goes on to its end.
    for (const p of [a1, a2, b1]) {
      await p.waitForFunction(
        () => (globalThis as unknown as Inspected).domtermInspect.connected,
        undefined,
        { timeout: 30_000 },
      );
    }
    await waitForRow(b1, String(LINES), 180_000);
    // vim has its text, and edits it.
    await a1.bringToFront();
    await a1.keyboard.type("A, still here");
    await a1.keyboard.press("Escape");
    await waitForRow(a1, "unsaved text in vim, still here", 20_000);
    await waitForRow(a2, "unsaved text in vim, still here", 20_000);

    // Both windows at one offset: output between the two reads (vim moves
    // its cursor once it took the Escape for a key) would tell them apart.
    let m1 = await models(a1, s, a);
    let m2 = await models(a2, s, a);
    for (let i = 0; i < 100 && m2.offset !== m1.offset; i++) {
      m1 = await models(a1, s, a);
      m2 = await models(a2, s, a);
    }
    assertEquals(m2.offset, m1.offset, "both windows at one offset");
    assertEquals(modelDiff(m1.page, m1.server), null);
    assertEquals(modelHash(m1.page), modelHash(m1.server));
    assertEquals(modelHash(m2.page), modelHash(m1.page), "identical screens");
    const mb = await models(b1, s, b);
    assertEquals(modelHash(mb.page), modelHash(mb.server));
    // Every number once, in order: in what the page received over both
    // servers' sockets (its history keeps the last 10,000 lines)...
    const received = await b1.evaluate(() => {
      const all = (globalThis as unknown as { received: Uint8Array[] })
        .received;
      const dec = new TextDecoder();
      return all.map((b) => dec.decode(b, { stream: true })).join("");
    });
    // (bash turns bracketed paste off before the first: `ESC [ ? 2004 l CR`)
    const numbers = received.split("\r\n")
      .map((l) => l.replace("\x1b[?2004l\r", ""))
      .filter((l) => /^\d+$/.test(l));
    const wrong = numbers.findIndex((n, i) => n !== String(i + 1));
    if (wrong >= 0) {
      const at = received.indexOf(`\r\n${numbers[wrong - 1]}\r\n`);
      throw new Error(
        `line ${wrong + 1} is ${numbers[wrong]}; received there: ${
          JSON.stringify(received.slice(at - 40, at + 80))
        }`,
      );
    }
    assertEquals(numbers.length, LINES, "no line lost or doubled");
    // ... and in the page's model.
    const tail = lines(mb.page).filter((l) => /^\d+$/.test(l));
    assertEquals(tail.at(-1), String(LINES));
    assertEquals(tail, numbers.slice(-tail.length));
    for (let i = 0; i < numbers.length; i++) {
      if (numbers[i] !== String(i + 1)) {
        throw new Error(`line ${i + 1} is ${numbers[i]}`);
      }
    }
    // The shell, adopted by the new server, exits: both windows say so,
    // its status unknown (the new server is not its parent).
    await a1.keyboard.type(":q!");
    await a1.keyboard.press("Enter");
    // Vim reads the keys that come before it exits (and drops them): the
    // shell's line goes once vim is gone, not into its last read.
    await waitFor(() => !running(vim), "vim to exit");
    await type(a1, "kill %1; exit 3");
    for (const p of [a1, a2]) {
      await p.waitForFunction(
        () =>
          document.body.innerText.includes(
            "Process ended: the program ended; its exit status is unknown",
          ),
        undefined,
        { timeout: 30_000 },
      );
    }
    assert(!running(shell) && !running(bg), "the shell and its job ended");
  } finally {
    await browser.close().catch(() => {});
    await stopHandoverServer(s);
  }
});
