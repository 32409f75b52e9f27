/**
 * Sessions that outlive their windows, in a real Chromium against a real
 * server and shell: kill -9 of the browser during a flood, a dropped
 * socket during a flood, a tab reload, two windows on one session. After
 * each, the window's model must equal the server's (a hash of both), the
 * last line of the flood must be there, and the same shell must answer.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { launchChromium, sharedChromium } from "./chromium.ts";
import { openPage, spawnServer, waitForRow } from "./domterm.ts";
import { request, socketPath } from "../../server/control.ts";
import {
  Terminal,
  type TerminalSnapshot,
} from "../../core/emulator/terminal.ts";
import { modelDiff, modelHash } from "../../core/serialize/model_hash.ts";
import type { Inspected } from "../../client/inspect.ts";

/**
 * The flood each test interrupts: long enough to be still running when the
 * browser dies (at line 20000) or the socket drops (at 5000), even on a
 * quiet machine; 200000 lines cost 10-30 s more per test and proved the
 * same. The tests wait for those lines in the page's model
 * (`waitForFloodPast`), not for a drawn row: a flood scrolls past most
 * lines between two frames, so a row "20000" was seldom drawn and each test
 * sat out its whole 30 s wait, the flood long over.
 */
const FLOOD_LINES = 100000;
const FLOOD = `seq 1 ${FLOOD_LINES}`;

interface Server {
  child: Deno.ChildProcess;
  url: string;
  dir: string;
}

async function startServer(): Promise<Server> {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-e2e-sessions-" });
  const { child, url } = await spawnServer(
    ["--", "bash", "--norc", "--noprofile"],
    { DOMTERM_RUNTIME_DIR: dir, PS1: "$ " },
  );
  return { child, url, dir };
}

async function stopServer(s: Server): Promise<void> {
  try {
    s.child.kill("SIGTERM");
  } catch { /* gone */ }
  await s.child.status;
}

/** The page's model, as the page holds it, once it has all the server's output. */
async function pageModel(page: Page, server: Server, session: number) {
  // Wait until the page has processed everything the server read.
  for (let i = 0; i < 1000; i++) {
    const res = await request(socketPath(server.dir), {
      op: "snapshot",
      session,
    });
    assert(res?.ok, `snapshot of session ${session}: ${res?.error}`);
    // ... and has loaded the older history of its snapshot, which comes
    // in slices after the screen (client/snapshot_slices.ts). The model
    // is read with its offset in one go: output that came after a first
    // look at the offset (the prompt after the flood's last line) would be
    // in the page's model but not in the server's snapshot.
    const caughtUp = await page.evaluate((want) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      if (d.position().offset !== want || d.historyLoading) return null;
      return JSON.stringify(d.term.snapshot());
    }, res!.offset!);
    if (caughtUp !== null) {
      return {
        page: Terminal.restore(JSON.parse(caughtUp) as TerminalSnapshot),
        server: Terminal.restore(res!.snapshot as TerminalSnapshot),
      };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the page never caught up with the server");
}

/**
 * Wait until the page's model holds a line of the flood's at or past `n`
 * (a number alone on a screen line): the flood has reached it, or ended.
 */
async function waitForFloodPast(page: Page, n: number): Promise<void> {
  await page.waitForFunction(
    (least) =>
      (globalThis as unknown as Inspected).domtermInspect.screenText().some(
        (l) => /^\d+$/.test(l.trim()) && Number(l) >= least,
      ),
    n,
    { timeout: 30_000, polling: 10 },
  );
}

async function sessionOf(page: Page): Promise<number> {
  return await page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.position()
      .session as number
  );
}

async function type(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

async function shellPid(page: Page, tag: string): Promise<string> {
  await type(page, `echo ${tag}-$$`);
  await page.waitForFunction(
    (t) =>
      Array.from(document.querySelectorAll("#terminal .dt-row")).some((r) =>
        new RegExp(`^${t}-\\d+$`).test((r.textContent ?? "").trim())
      ),
    tag,
    { timeout: 20_000 },
  );
  return await page.evaluate((t) => {
    const row = Array.from(document.querySelectorAll("#terminal .dt-row"))
      .find((r) =>
        new RegExp(`^${t}-\\d+$`).test((r.textContent ?? "").trim())
      );
    return (row!.textContent ?? "").trim().split("-")[1];
  }, tag);
}

/** Close what a test opened on the shared browser (openPage: a context a page). */
async function closePages(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((c) => c.close()));
}

function assertSame(a: Terminal, b: Terminal): void {
  assertEquals(modelDiff(a, b), null);
  assertEquals(modelHash(a), modelHash(b));
}

function lastLines(t: Terminal, n: number): string[] {
  const buf = t.normalBuffer;
  const out: string[] = [];
  for (let i = 0; i < buf.length; i++) out.push(buf.getLine(i).toString(true));
  while (out.length && out[out.length - 1] === "") out.pop();
  return out.slice(-n);
}

Deno.test("e2e sessions: kill -9 of the browser during a flood; a new window shows exactly the server's model", async () => {
  const marker = `domterm-test-${crypto.randomUUID()}`;
  // The server starts while the browser does.
  const [started, launched] = await Promise.allSettled([
    startServer(),
    launchChromium([`--${marker}`]),
  ]);
  if (started.status === "rejected") {
    if (launched.status === "fulfilled") await launched.value.close();
    throw started.reason;
  }
  if (launched.status === "rejected") {
    await stopServer(started.value);
    throw launched.reason;
  }
  const server = started.value;
  let browser = launched.value;
  // The window after the kill opens on the file's shared browser (the
  // next tests use it too): one launch fewer.
  let shared = false;
  try {
    let page = await openPage(browser, server.url);
    const session = await sessionOf(page);
    const pid = await shellPid(page, "before");
    await type(page, `printf '\\e[31mRED\\e[0m \\e[1mBOLD\\e[0m\\n'; ${FLOOD}`);
    await waitForFloodPast(page, 20000);
    // The browser dies without a word.
    const kill = await new Deno.Command("pkill", {
      args: ["-9", "-f", marker],
    }).output();
    assertEquals(kill.code, 0, "pkill found the browser");
    await browser.close().catch(() => {});

    // The next browser starts while `domterm attach` runs.
    const next = sharedChromium();
    next.catch(() => {}); // awaited below; not unhandled meanwhile
    // `domterm attach` from a shell gives the page to open.
    const attach = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../main.ts", import.meta.url).pathname,
        "attach",
        String(session),
        "--no-browser",
      ],
      env: { DOMTERM_RUNTIME_DIR: server.dir, DOMTERM_SOCKET: "" },
      stdin: "null",
    }).output();
    assertEquals(attach.code, 0, new TextDecoder().decode(attach.stderr));
    const url = new TextDecoder().decode(attach.stdout).trim();

    browser = await next;
    shared = true;
    page = await openPage(browser, url);
    await waitForRow(page, String(FLOOD_LINES), 60_000);
    const { page: p, server: s } = await pageModel(page, server, session);
    assertSame(p, s);
    const text = lastLines(p, FLOOD_LINES + 20).join("\n");
    assert(text.includes("RED BOLD") || p.normalBuffer.trimmed > 0);
    assertEquals(lastLines(p, 2)[0], String(FLOOD_LINES));
    // The same shell answers.
    assertEquals(await shellPid(page, "after"), pid);
  } finally {
    if (shared) await closePages(browser);
    else await browser.close().catch(() => {});
    await stopServer(server);
  }
});

Deno.test("e2e sessions: a socket dropped during a flood reconnects by itself, nothing lost or doubled", async () => {
  const server = await startServer();
  const browser = await sharedChromium();
  try {
    const page = await openPage(browser, server.url);
    const session = await sessionOf(page);
    const pid = await shellPid(page, "before");
    await type(page, FLOOD);
    await waitForFloodPast(page, 5000);
    for (let k = 0; k < 3; k++) {
      await page.evaluate(() =>
        (globalThis as unknown as Inspected)
          .domtermInspect.dropConnection()
      );
      await new Promise((r) => setTimeout(r, 400));
    }
    await waitForRow(page, String(FLOOD_LINES), 60_000);
    const { page: p, server: s } = await pageModel(page, server, session);
    assertSame(p, s);
    // Nothing doubled: the numbers in the history count up by one.
    const lines = lastLines(p, 5000).filter((l) => /^\d+$/.test(l)).map(
      Number,
    );
    for (let i = 1; i < lines.length; i++) {
      assertEquals(lines[i], lines[i - 1] + 1);
    }
    assertEquals(lines.at(-1), FLOOD_LINES);
    assertEquals(await shellPid(page, "after"), pid);
  } finally {
    await closePages(browser);
    await stopServer(server);
  }
});

Deno.test("e2e sessions: a tab reload during a flood reattaches to the same shell", async () => {
  const server = await startServer();
  const browser = await sharedChromium();
  try {
    const page = await openPage(browser, server.url);
    const session = await sessionOf(page);
    const pid = await shellPid(page, "before");
    await type(page, FLOOD);
    await waitForFloodPast(page, 5000);
    await page.reload();
    // 60 s like the flood's end below: at load 45 on 2 cores the reloaded
    // page took over the default 30 s to connect during the flood.
    await page.waitForFunction(
      () =>
        "domtermInspect" in globalThis &&
        (globalThis as unknown as Inspected)
          .domtermInspect.connected,
      undefined,
      { timeout: 60_000 },
    );
    assertEquals(await sessionOf(page), session);
    await waitForRow(page, String(FLOOD_LINES), 60_000);
    const { page: p, server: s } = await pageModel(page, server, session);
    assertSame(p, s);
    assertEquals(await shellPid(page, "after"), pid);
  } finally {
    await closePages(browser);
    await stopServer(server);
  }
});

Deno.test("e2e sessions: two windows on one session show the same input and output; a resize of one reaches the other", async () => {
  const server = await startServer();
  const browser = await sharedChromium();
  try {
    const a = await openPage(browser, server.url);
    const session = await sessionOf(a);
    const url = new URL(server.url);
    url.hash += `&session=${session}`;
    const b = await openPage(browser, url.href, { width: 600, height: 400 });
    await type(a, "echo typed-in-a");
    await waitForRow(a, "typed-in-a");
    await waitForRow(b, "typed-in-a");
    await b.bringToFront();
    await b.focus("#terminal textarea").catch(() => {});
    await type(b, "echo typed-in-b");
    await waitForRow(a, "typed-in-b");
    await waitForRow(b, "typed-in-b");
    // b typed last: the grid is b's, and a shows it (and says so).
    const grid = (p: Page) =>
      p.evaluate(() => {
        const d = (globalThis as unknown as Inspected).domtermInspect;
        return [d.term.cols, d.term.rows];
      });
    const bGrid = await grid(b);
    await a.waitForFunction(
      ([c, r]) => {
        const t = (globalThis as unknown as Inspected).domtermInspect.term;
        return t.cols === c && t.rows === r;
      },
      bGrid,
    );
    assert(
      await a.evaluate(() => !document.getElementById("dt-grid-note")!.hidden),
      "a says the grid is another window's",
    );
    // b is made narrower: a follows.
    await b.setViewportSize({ width: 400, height: 300 });
    await b.waitForFunction((old) => {
      const t = (globalThis as unknown as Inspected).domtermInspect.term;
      return t.cols < old;
    }, bGrid[0]);
    const narrow = await grid(b);
    await a.waitForFunction(
      ([c, r]) => {
        const t = (globalThis as unknown as Inspected).domtermInspect.term;
        return t.cols === c && t.rows === r;
      },
      narrow,
    );
    // The program gets the size once the window stops changing (120 ms).
    await new Promise((r) => setTimeout(r, 400));
    await type(b, "stty size");
    await waitForRow(a, `${narrow[1]} ${narrow[0]}`);
    const ma = await pageModel(a, server, session);
    const mb = await pageModel(b, server, session);
    assertSame(ma.page, ma.server);
    assertSame(mb.page, mb.server);
  } finally {
    await closePages(browser);
    await stopServer(server);
  }
});
