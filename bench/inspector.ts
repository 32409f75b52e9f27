/**
 * A minimal client of V8's inspector protocol, for the benches that look
 * into a server started with `--inspect` (bench/server_profile.ts,
 * bench/many_sessions_bench.ts `--heaps`).
 *
 * @module
 */

/** A minimal inspector-protocol client. */
export class Inspector {
  #ws: WebSocket;
  #id = 0;
  #waiting = new Map<number, (r: unknown) => void>();
  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data as string);
      if (m.id !== undefined) this.#waiting.get(m.id)?.(m.result ?? m.error);
    };
  }
  static async connect(port: number): Promise<Inspector> {
    for (let i = 0; i < 100; i++) {
      try {
        const list = await (await fetch(`http://127.0.0.1:${port}/json`))
          .json();
        const ws = new WebSocket(list[0].webSocketDebuggerUrl);
        await new Promise((ok, fail) => {
          ws.onopen = ok;
          ws.onerror = fail;
        });
        return new Inspector(ws);
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error("the server's inspector never answered");
  }
  send(method: string, params: unknown = {}): Promise<unknown> {
    const id = ++this.#id;
    this.#ws.send(JSON.stringify({ id, method, params }));
    return new Promise((r) => this.#waiting.set(id, r));
  }
  close(): void {
    this.#ws.close();
  }
}
