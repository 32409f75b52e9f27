/**
 * Settings the server hands the page: the user's stylesheet at /user.css
 * (behind the server key) and the scrollback limit in `ready`; and the
 * `--scrollback` option.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import {
  MAX_USER_CSS_BYTES,
  type ServerOptions,
  startServer,
} from "../../server/http.ts";
import { parseCli, UsageError } from "../../server/cli.ts";
import {
  DEFAULT_SCROLLBACK_LINES,
  type ReadyMessage,
  USER_CSS_KEY_HEADER,
  USER_CSS_PATH,
} from "../../core/protocol.ts";
import { TestClient } from "./ws_client.ts";

const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

function serve(extra: Partial<ServerOptions>) {
  return startServer({
    command: "/bin/sh",
    args: [],
    assets: ASSETS,
    log: () => {},
    ...extra,
  });
}

async function getCss(port: number, key: string | null) {
  const headers: Record<string, string> = {};
  if (key !== null) headers[USER_CSS_KEY_HEADER] = key;
  const r = await fetch(`http://127.0.0.1:${port}${USER_CSS_PATH}`, {
    headers,
  });
  return {
    status: r.status,
    type: r.headers.get("content-type"),
    body: await r.text(),
  };
}

Deno.test("server: /user.css serves the user's file with the key, 403 without", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-css-" });
  const path = `${dir}/style.css`;
  await Deno.writeTextFile(path, ".domterm { --dt-font-size: 20px; }\n");
  const s = serve({ userCssPath: path });
  try {
    const ok = await getCss(s.port, s.key);
    assertEquals(ok.status, 200);
    assertMatch(ok.type ?? "", /^text\/css/);
    assertEquals(ok.body, ".domterm { --dt-font-size: 20px; }\n");
    assertEquals((await getCss(s.port, null)).status, 403);
    assertEquals((await getCss(s.port, "x".repeat(32))).status, 403);
    // Edits show at the next load: the file is read per request.
    await Deno.writeTextFile(path, "body { color: red }");
    assertEquals((await getCss(s.port, s.key)).body, "body { color: red }");
  } finally {
    await s.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("server: /user.css without a file is 204, a huge or odd one a clear error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-css-" });
  const s = serve({ userCssPath: `${dir}/none/style.css` });
  const big = `${dir}/big.css`;
  await Deno.writeTextFile(big, "a".repeat(MAX_USER_CSS_BYTES + 1));
  const s2 = serve({ userCssPath: big });
  const s3 = serve({ userCssPath: dir });
  try {
    const none = await getCss(s.port, s.key);
    assertEquals([none.status, none.body], [204, ""]);
    const huge = await getCss(s2.port, s2.key);
    assertEquals(huge.status, 413);
    assertMatch(huge.body, /larger than/);
    const notFile = await getCss(s3.port, s3.key);
    assertEquals(notFile.status, 500);
    assertMatch(notFile.body, /not a file/);
  } finally {
    await Promise.all([s.shutdown(), s2.shutdown(), s3.shutdown()]);
    await Deno.remove(dir, { recursive: true });
  }
});

async function readyOf(
  scrollback: number | null | undefined,
): Promise<ReadyMessage> {
  const s = serve({ scrollback });
  const c = new TestClient(`ws://127.0.0.1:${s.port}/ws`);
  try {
    await c.opened;
    c.send({ type: "hello", key: s.key, cols: 80, rows: 24 });
    await c.until(() => c.messages.some((m) => m.type === "ready"), "ready");
    return c.messages.find((m) => m.type === "ready") as ReadyMessage;
  } finally {
    c.ws.close();
    await c.closed;
    await s.shutdown();
  }
}

Deno.test("server: ready carries the scrollback setting", async () => {
  assertEquals((await readyOf(undefined)).scrollback, DEFAULT_SCROLLBACK_LINES);
  assertEquals((await readyOf(500)).scrollback, 500);
  assertEquals((await readyOf(null)).scrollback, null);
});

Deno.test("cli: --scrollback takes a line count or 'unlimited'", () => {
  for (
    const [args, want] of [
      [[], undefined],
      [["--scrollback", "0"], 0],
      [["--scrollback=250000"], 250000],
      [["--scrollback", "unlimited"], null],
    ] as [string[], number | null | undefined][]
  ) {
    assertEquals(parseCli(args).scrollback, want, args.join(" "));
  }
  for (const bad of ["-1", "lots", "", "1e5", "99999999999"]) {
    let err: unknown;
    try {
      parseCli(["--scrollback", bad]);
    } catch (e) {
      err = e;
    }
    assert(err instanceof UsageError, `--scrollback ${bad}`);
    assertMatch((err as Error).message, /--scrollback/);
  }
});
