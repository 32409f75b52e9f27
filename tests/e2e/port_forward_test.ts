/**
 * A loopback server reached through a port forward (a TCP proxy on another
 * port, as `ssh -L 9000:127.0.0.1:PORT` makes): the page loads and its
 * WebSocket connects, since the host *name* is a loopback one and the
 * Origin is the Host the page came from. A page of another origin, or a
 * rebound DNS name, is still refused, through the proxy or not.
 */
import { assertEquals, assertMatch } from "../assert.ts";
import { spawnServer, waitForRow } from "./domterm.ts";
import { launchChromium } from "./chromium.ts";
import { rawUpgrade } from "../server/ws_client.ts";

/** A TCP proxy on a free port to 127.0.0.1:`target`. */
function proxy(target: number): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const inbound of listener) {
      conns.add(inbound);
      (async () => {
        const outbound = await Deno.connect({
          hostname: "127.0.0.1",
          port: target,
        });
        conns.add(outbound);
        await Promise.allSettled([
          inbound.readable.pipeTo(outbound.writable),
          outbound.readable.pipeTo(inbound.writable),
        ]);
      })().catch(() => {});
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
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

/** The status line of a raw WebSocket upgrade to `port` with these headers. */
function upgrade(
  port: number,
  host: string,
  origin: string | null,
): Promise<string> {
  return rawUpgrade(port, origin, host);
}

Deno.test("e2e port forward: the page works through a TCP proxy on another port; other origins and names are refused", async () => {
  const { child, url } = await spawnServer([
    "--",
    "sh",
    "-c",
    "echo FORWARD-OK; exec cat",
  ]);
  const server = new URL(url);
  const fwd = proxy(Number(server.port));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({
      viewport: { width: 800, height: 480 },
    });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    await page.goto(`http://127.0.0.1:${fwd.port}/${server.hash}`);
    await waitForRow(page, "FORWARD-OK");
    await page.keyboard.type("typed through the forward");
    await page.keyboard.press("Enter");
    await waitForRow(page, "typed through the forward");

    const p = fwd.port;
    // Same name and port as the page: accepted (localhost too).
    assertMatch(
      await upgrade(p, `127.0.0.1:${p}`, `http://127.0.0.1:${p}`),
      / 101 /,
    );
    assertMatch(
      await upgrade(p, `localhost:${p}`, `http://localhost:${p}`),
      / 101 /,
    );
    // A page of another origin: another port, another host, https.
    assertMatch(
      await upgrade(p, `127.0.0.1:${p}`, `http://127.0.0.1:${p + 1}`),
      / 403 /,
    );
    assertMatch(
      await upgrade(p, `127.0.0.1:${p}`, "http://evil.example"),
      / 403 /,
    );
    assertMatch(
      await upgrade(p, `127.0.0.1:${p}`, `https://127.0.0.1:${p}`),
      / 403 /,
    );
    // A rebound DNS name, through the proxy or straight: refused by name.
    assertMatch(
      await upgrade(p, `evil.example:${p}`, `http://evil.example:${p}`),
      / 403 /,
    );
    const s = Number(server.port);
    assertMatch(
      await upgrade(s, `evil.example:${s}`, `http://evil.example:${s}`),
      / 403 /,
    );
    assertMatch(await upgrade(s, `127.0.0.1.evil.example:${s}`, null), / 403 /);
    assertEquals(
      await upgrade(s, `127.0.0.1:${s}`, `http://127.0.0.1:${s}`),
      "HTTP/1.1 101 Switching Protocols",
    );
  } finally {
    await browser.close();
    fwd.close();
    child.kill("SIGTERM");
    await child.status;
  }
});
