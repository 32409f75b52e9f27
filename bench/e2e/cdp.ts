/**
 * A minimal Chrome DevTools protocol client for the end-to-end benchmark:
 * Chromium launched directly (no playwright), pages driven with only the
 * domains the benchmark needs (Runtime, Input, Emulation, Fetch for one
 * script, HeapProfiler).
 *
 * Why not playwright: it enables the Network domain on every page and
 * listens for WebSocket frames, so Chromium copies every output frame,
 * base64-encoded, to the controlling process. On the 2-core machine that
 * took about half a core away from the page and halved both terminals'
 * throughput (docs/benchmarks.md); a user's browser does none of it.
 *
 * @module
 */
import { CHROMIUM_ARGS, findChromium } from "../../tests/e2e/chromium.ts";
import { APP_SWITCHES } from "../../server/browser.ts";

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;
type Listener = (params: Params, sessionId?: string) => void;

/** One DevTools WebSocket connection to the browser. */
class Connection {
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<
    number,
    { ok: (r: Result) => void; no: (e: Error) => void; method: string }
  >();
  #listeners = new Map<string, Set<Listener>>();
  readonly closed: Promise<void>;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (ev) => this.#onMessage(JSON.parse(ev.data as string));
    this.closed = new Promise((ok) => {
      ws.onclose = () => {
        for (const p of this.#pending.values()) {
          p.no(new Error(`${p.method}: the browser connection closed`));
        }
        this.#pending.clear();
        ok();
      };
    });
  }

  static open(url: string): Promise<Connection> {
    const ws = new WebSocket(url);
    return new Promise((ok, no) => {
      ws.onopen = () => ok(new Connection(ws));
      ws.onerror = () => no(new Error(`cannot connect to ${url}`));
    });
  }

  send(method: string, params: Params = {}, sessionId?: string) {
    const id = this.#next++;
    this.#ws.send(JSON.stringify({ id, method, params, sessionId }));
    return new Promise<Result>((ok, no) => {
      this.#pending.set(id, { ok, no, method });
    });
  }

  on(event: string, fn: Listener): void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, set = new Set());
    set.add(fn);
  }

  close(): void {
    this.#ws.close();
  }

  #onMessage(msg: {
    id?: number;
    result?: Result;
    error?: { message: string };
    method?: string;
    params?: Params;
    sessionId?: string;
  }): void {
    if (msg.id !== undefined) {
      const p = this.#pending.get(msg.id);
      this.#pending.delete(msg.id);
      if (!p) return;
      if (msg.error) p.no(new Error(`${p.method}: ${msg.error.message}`));
      else p.ok(msg.result ?? {});
      return;
    }
    for (const fn of this.#listeners.get(msg.method ?? "") ?? []) {
      fn(msg.params ?? {}, msg.sessionId);
    }
  }
}

/** Key code and Windows virtual key code of a letter or digit. */
function keyInfo(ch: string): { code: string; vk: number } {
  if (/^[a-z]$/i.test(ch)) {
    return {
      code: `Key${ch.toUpperCase()}`,
      vk: ch.toUpperCase().charCodeAt(0),
    };
  }
  if (/^[0-9]$/.test(ch)) return { code: `Digit${ch}`, vk: ch.charCodeAt(0) };
  throw new Error(`press: only letters and digits, not ${JSON.stringify(ch)}`);
}

/** A page (tab) of a {@link RawBrowser}. */
export class RawPage {
  #conn: Connection;
  #session: string;
  #targetId: string;
  /** Script bodies served instead of the network's, by URL. */
  #scripts = new Map<string, string>();
  /** The chunks of the heap snapshot being taken. */
  #snapshotParts: string[] | null = null;

  constructor(conn: Connection, session: string, targetId: string) {
    this.#conn = conn;
    this.#session = session;
    this.#targetId = targetId;
    conn.on("HeapProfiler.addHeapSnapshotChunk", (p, s) => {
      if (s === session) this.#snapshotParts?.push(p.chunk as string);
    });
    conn.on("Runtime.exceptionThrown", (p, s) => {
      if (s !== session) return;
      const d = p.exceptionDetails as {
        text: string;
        exception?: { description?: string };
      };
      console.error(
        "page error:",
        d.exception?.description ?? d.text,
      );
    });
    conn.on("Fetch.requestPaused", (p, s) => {
      if (s !== session) return;
      const url = (p.request as { url: string }).url;
      const body = this.#scripts.get(url);
      const requestId = p.requestId;
      if (body === undefined) {
        void this.send("Fetch.continueRequest", { requestId });
        return;
      }
      void this.send("Fetch.fulfillRequest", {
        requestId,
        responseCode: 200,
        responseHeaders: [{
          name: "content-type",
          value: "text/javascript; charset=utf-8",
        }],
        body: btoa(
          Array.from(
            new TextEncoder().encode(body),
            (b) => String.fromCharCode(b),
          ).join(""),
        ),
      });
    });
  }

  send(method: string, params: Params = {}): Promise<Result> {
    return this.#conn.send(method, params, this.#session);
  }

  /** Serve `body` as the script at `url` (the network is not asked). */
  async serveScript(url: string, body: string): Promise<void> {
    this.#scripts.set(url, body);
    await this.send("Fetch.enable", {
      patterns: [...this.#scripts.keys()].map((u) => ({
        urlPattern: u,
        requestStage: "Request",
      })),
    });
  }

  /** Load `url` and wait for its load event. */
  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((ok) => {
      this.#conn.on("Page.loadEventFired", (_p, s) => {
        if (s === this.#session) ok();
      });
    });
    await this.send("Page.navigate", { url });
    await loaded;
  }

  /** Run `fn(arg)` in the page and return its (JSON) result. */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.#evaluate(
      `(${fn.toString()})(${JSON.stringify(arg ?? null)})`,
    );
  }

  async #evaluate<R>(expression: string): Promise<R> {
    const r = await this.send("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    const ex = r.exceptionDetails as
      | { text: string; exception?: { description?: string } }
      | undefined;
    if (ex) {
      throw new Error(`evaluate: ${ex.exception?.description ?? ex.text}`);
    }
    return (r.result as { value: R }).value;
  }

  /**
   * Wait (checking every animation frame) until `fn(arg)` is truthy. The
   * function is pasted into the expression: the page's CSP forbids eval.
   */
  async waitForFunction<A>(
    fn: (arg: A) => unknown,
    arg?: A,
    timeout = 30_000,
  ): Promise<void> {
    const ok = await this.#evaluate<boolean>(`(async () => {
      const f = (${fn.toString()});
      const a = ${JSON.stringify(arg ?? null)};
      const end = performance.now() + ${timeout};
      while (!f(a)) {
        if (performance.now() > end) return false;
        await new Promise((r) => requestAnimationFrame(r));
      }
      return true;
    })()`);
    if (!ok) {
      throw new Error(`waitForFunction: timed out after ${timeout} ms`);
    }
  }

  /** Press and release a letter or digit key (trusted key events). */
  async press(ch: string): Promise<void> {
    const { code, vk } = keyInfo(ch);
    const common = {
      key: ch,
      code,
      windowsVirtualKeyCode: vk,
      nativeVirtualKeyCode: vk,
    };
    await this.send("Input.dispatchKeyEvent", {
      type: "keyDown",
      text: ch,
      unmodifiedText: ch,
      ...common,
    });
    await this.send("Input.dispatchKeyEvent", { type: "keyUp", ...common });
  }

  /** Start recording a Chromium trace (see {@link stopTrace}). */
  async startTrace(): Promise<void> {
    await this.#conn.send("Tracing.start", {
      categories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "blink",
        "cc",
        "toplevel",
      ].join(","),
      transferMode: "ReturnAsStream",
    });
  }

  /** Stop the trace and return it (Chrome's JSON trace format). */
  async stopTrace(): Promise<string> {
    const done = new Promise<string>((ok) => {
      this.#conn.on("Tracing.tracingComplete", (p) => ok(p.stream as string));
    });
    await this.#conn.send("Tracing.end");
    const handle = await done;
    let text = "";
    for (;;) {
      const r = await this.#conn.send("IO.read", { handle });
      text += r.base64Encoded ? atob(r.data as string) : r.data as string;
      if (r.eof) break;
    }
    await this.#conn.send("IO.close", { handle });
    return text;
  }

  /** Start the V8 sampling profiler of the page (see {@link stopProfile}). */
  async startProfile(intervalUs = 200): Promise<void> {
    await this.send("Profiler.enable");
    await this.send("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.send("Profiler.start");
  }

  /** Stop the profiler; returns the profile (the `.cpuprofile` format). */
  async stopProfile(): Promise<CpuProfile> {
    const r = await this.send("Profiler.stop");
    return r.profile as CpuProfile;
  }

  /** Chromium's page metrics (Performance domain), by name. */
  async metrics(): Promise<Map<string, number>> {
    await this.send("Performance.enable");
    const r = await this.send("Performance.getMetrics");
    return new Map(
      (r.metrics as { name: string; value: number }[]).map((
        m,
      ) => [m.name, m.value]),
    );
  }

  /** Used JS heap in bytes after a full garbage collection. */
  async heapUsed(): Promise<number> {
    await this.send("HeapProfiler.collectGarbage");
    const h = await this.send("Runtime.getHeapUsage");
    return h.usedSize as number;
  }

  /**
   * A heap snapshot of the page (the `.heapsnapshot` JSON text), after a
   * full garbage collection.
   */
  async heapSnapshot(): Promise<string> {
    const parts: string[] = [];
    this.#snapshotParts = parts;
    await this.send("HeapProfiler.enable");
    await this.send("HeapProfiler.collectGarbage");
    await this.send("HeapProfiler.takeHeapSnapshot", {
      reportProgress: false,
      captureNumericValue: false,
    });
    this.#snapshotParts = null;
    return parts.join("");
  }

  async close(): Promise<void> {
    await this.#conn.send("Target.closeTarget", { targetId: this.#targetId });
  }
}

/** A V8 CPU profile as DevTools' Profiler.stop returns it. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A headless Chromium driven over its DevTools WebSocket. */
export class RawBrowser {
  #conn: Connection;
  #child: Deno.ChildProcess;
  #dir: string;
  readonly version: string;

  private constructor(
    conn: Connection,
    child: Deno.ChildProcess,
    dir: string,
    version: string,
  ) {
    this.#conn = conn;
    this.#child = child;
    this.#dir = dir;
    this.version = version;
  }

  /** Start Chromium (the one the tests use) and connect to it. */
  static async launch(): Promise<RawBrowser> {
    const dir = await Deno.makeTempDir({ prefix: "domterm-bench-chromium-" });
    const child = new Deno.Command(await findChromium(), {
      args: [
        ...CHROMIUM_ARGS,
        "--headless=new",
        "--remote-debugging-port=0",
        // The browser as domterm opens it (server/browser.ts).
        ...APP_SWITCHES,
        `--user-data-dir=${dir}`,
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    // Chromium writes its port and browser endpoint here once it listens.
    const portFile = `${dir}/DevToolsActivePort`;
    let text = "";
    for (let i = 0; i < 300 && !text.includes("\n"); i++) {
      text = await Deno.readTextFile(portFile).catch(() => "");
      if (!text.includes("\n")) await new Promise((r) => setTimeout(r, 100));
    }
    if (!text.includes("\n")) {
      child.kill();
      throw new Error("Chromium did not open its DevTools port within 30 s");
    }
    const [port, path] = text.trim().split("\n");
    const conn = await Connection.open(`ws://127.0.0.1:${port}${path}`);
    const v = await conn.send("Browser.getVersion");
    return new RawBrowser(conn, child, dir, String(v.product));
  }

  /** The process id of the browser (its renderers are its descendants). */
  get pid(): number {
    return this.#child.pid;
  }

  /** A new tab of `viewport` size, attached and ready for {@link RawPage.goto}. */
  async newPage(
    viewport: { width: number; height: number },
  ): Promise<RawPage> {
    // Each page in its own window, so each is the front tab of its window:
    // a tab behind another (all pages in one window) got its key echoes
    // ~1 s late after its first few keys (measured: domterm's keys 8, 7, 6,
    // then 990-1000 ms with a ttyd page opened after it; the front page
    // was not affected).
    const { targetId } = await this.#conn.send("Target.createTarget", {
      url: "about:blank",
      newWindow: true,
    });
    const { sessionId } = await this.#conn.send("Target.attachToTarget", {
      targetId,
      flatten: true,
    });
    const page = new RawPage(
      this.#conn,
      sessionId as string,
      targetId as string,
    );
    await page.send("Page.enable");
    await page.send("Runtime.enable");
    // Keyboard events reach the page as if its window had the focus.
    await page.send("Emulation.setFocusEmulationEnabled", { enabled: true });
    await page.send("Emulation.setDeviceMetricsOverride", {
      ...viewport,
      deviceScaleFactor: 1,
      mobile: false,
    });
    return page;
  }

  async close(): Promise<void> {
    await this.#conn.send("Browser.close").catch(() => {});
    this.#conn.close();
    await this.#conn.closed;
    await this.#child.status;
    await Deno.remove(this.#dir, { recursive: true }).catch(() => {});
  }
}
