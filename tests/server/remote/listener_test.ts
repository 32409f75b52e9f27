/**
 * The remote listener for real: `domterm --listen 0.0.0.0:0` (main.ts)
 * with a throw-away TLS certificate and a password. It refuses to start
 * without them; a wrong password is rejected, then rate-limited (429);
 * the right one gets a cookie that opens a shell over a real WebSocket
 * (wss, same-origin Origin required); a read-only share sees output and
 * cannot type; the access log has it all.
 */
import { assert, assertEquals, assertMatch } from "../../assert.ts";
import { TestClient } from "../ws_client.ts";
import { privateRuntimeEnv } from "../../runtime_dir.ts";
import {
  domterm,
  loginForm,
  PASSWORD,
  postLogin,
  remoteFetch,
  type RemoteServer,
  startRemote,
} from "./fixture.ts";

const SHELL = ["bash", "--norc", "--noprofile"];
const MAIN = new URL("../../../main.ts", import.meta.url).pathname;

async function runMain(args: string[]): Promise<Deno.CommandOutput> {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-remote-run-" });
  try {
    return await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "--no-browser", ...args],
      env: privateRuntimeEnv({ DOMTERM_RUNTIME_DIR: dir }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

function socket(
  s: RemoteServer,
  headers: Record<string, string>,
): TestClient {
  const url = `${s.origin.replace("https:", "wss:")}/ws`;
  return new TestClient(url, true, { headers, client: s.client });
}

async function hello(
  c: TestClient,
  key: string,
  session?: number,
): Promise<void> {
  await c.opened;
  c.send({
    type: "hello",
    key,
    cols: 80,
    rows: 24,
    ...(session ? { session } : {}),
  });
  await c.until(
    () => c.messages.some((m) => m.type === "ready") || c.closeCode !== null,
    "ready or close",
  );
}

Deno.test("a network address without TLS or password: refusal to start, exit 2", async () => {
  const out = await runMain(["--listen", "0.0.0.0:0", "--", "true"]);
  assertEquals(out.code, 2);
  const err = new TextDecoder().decode(out.stderr);
  assertMatch(err, /refusing to listen on 0\.0\.0\.0 without --tls-cert/);
  assertEquals(new TextDecoder().decode(out.stdout), "", "no URL printed");
});

Deno.test("remote listener: login, rate limit, shell over wss, read-only share, access log", async () => {
  const s = await startRemote(SHELL);
  const clients: TestClient[] = [];
  try {
    // It prints the login page (no key) and serves HTTPS.
    assertMatch(s.printedUrl, /^https:\/\/[^/]+:\d+\/$/);
    const root = await remoteFetch(s, "/");
    await root.body?.cancel();
    assertEquals(root.status, 303, "/ without a login");
    assertEquals(root.headers.get("location"), "/login");
    // HTTPS only from now on, for this host.
    assertEquals(
      root.headers.get("strict-transport-security"),
      "max-age=31536000",
    );

    // A login form posted without its CSRF cookie is refused.
    const forged = await remoteFetch(s, "/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "csrf=x&password=" + encodeURIComponent(PASSWORD),
    });
    await forged.body?.cancel();
    assertEquals(forged.status, 403);

    // The right password: a cookie HttpOnly, Secure, SameSite=Strict.
    const good = await postLogin(s, PASSWORD);
    assertEquals(good.status, 303, await good.text());
    const set = good.headers.getSetCookie().find((c) =>
      c.startsWith("domterm_auth=")
    )!;
    for (const a of ["HttpOnly", "Secure", "SameSite=Strict", "Max-Age="]) {
      assert(set.includes(a), `${a} in ${set}`);
    }
    const cookie = set.split(";")[0];

    // A WebSocket needs the same origin, then the cookie opens a shell.
    const noOrigin = socket(s, { cookie });
    await noOrigin.closed;
    assert(noOrigin.messages.length === 0, "no origin: refused");
    const otherOrigin = socket(s, { cookie, origin: "https://evil.example" });
    await otherOrigin.closed;
    const noCookie = socket(s, { origin: s.origin });
    clients.push(noCookie);
    await hello(noCookie, "");
    assertEquals(noCookie.closeCode !== null, true, "no cookie, no key");
    assertMatch(JSON.stringify(noCookie.messages), /not logged in/);

    const full = socket(s, { cookie, origin: s.origin });
    clients.push(full);
    await hello(full, "");
    assertEquals(full.closeCode, null);
    full.input("echo remote-$((6*7))\r");
    await full.until(() => full.text.includes("remote-42"), "the echo");

    // Wrong passwords: rejected, then 429 with Retry-After.
    for (let i = 0; i < 5; i++) {
      const bad = await postLogin(s, `wrong ${i}`);
      await bad.body?.cancel();
      assertEquals(bad.status, 401, `attempt ${i + 1}`);
      assert(
        !bad.headers.getSetCookie().some((c) => c.startsWith("domterm_auth=")),
      );
    }
    const limited = await postLogin(s, PASSWORD);
    const limitedText = await limited.text();
    assertEquals(limited.status, 429, limitedText);
    assert(Number(limited.headers.get("retry-after")) >= 1);

    // A read-only share of session 1: sees output, cannot type.
    const shared = await domterm(s, ["share", "1", "--read-only"]);
    assertEquals(shared.code, 0, shared.stderr);
    const shareUrl = new URL(shared.stdout.trim());
    assertEquals(shareUrl.pathname, "/share");
    const params = new URLSearchParams(shareUrl.hash.slice(1));
    const token = params.get("key")!;
    assertEquals(params.get("session"), "1");
    const page = await remoteFetch(s, "/share");
    await page.body?.cancel();
    assertEquals(page.status, 200, "the share page needs no login");

    // The token opens its own session only.
    const elsewhere = socket(s, { origin: s.origin });
    clients.push(elsewhere);
    await hello(elsewhere, token);
    assert(elsewhere.closeCode !== null, "a new session refused");

    const viewer = socket(s, { origin: s.origin });
    clients.push(viewer);
    await hello(viewer, token, 1);
    assertEquals(viewer.closeCode, null);
    await viewer.until(
      () => viewer.messages.some((m) => m.type === "read-only"),
      "the read-only notice",
    );
    viewer.input("echo typed-by-$((100+1))\r");
    viewer.send({ type: "resize", cols: 20, rows: 5 });
    viewer.send({ type: "detach" });
    full.input("echo owner-$((2+3))\r");
    await viewer.until(() => viewer.text.includes("owner-5"), "live output");
    await full.until(() => full.text.includes("owner-5"), "the owner's echo");
    assert(
      !full.text.includes("typed-by-101"),
      "the viewer's input was dropped",
    );
    assertEquals(
      viewer.messages.filter((m) => m.type === "read-only").length,
      1,
      "told once",
    );
    assert(!viewer.messages.some((m) => m.type === "detached"), "no detach");
    const list = await domterm(s, ["list", "--json"]);
    const sessions = JSON.parse(list.stdout);
    assertEquals([sessions[0].cols, sessions[0].rows], [80, 24], "no resize");

    // The access log: ISO time, address, event.
    const log = Deno.readTextFileSync(s.files.accessLog);
    for (
      const ev of [
        "login-ok",
        "login-failed",
        "login-throttled",
        "login-refused",
        "connected",
        "share-used",
        "ws-refused",
      ]
    ) {
      assertMatch(
        log,
        new RegExp(
          `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z 127\\.0\\.0\\.1 ${ev}`,
          "m",
        ),
        ev,
      );
    }

    // Logout needs the session's CSRF token, then the cookie is dead.
    const logoutPage = await remoteFetch(s, "/logout", { headers: { cookie } });
    const csrf =
      /name="csrf" value="([^"]+)"/.exec(await logoutPage.text())![1];
    const out = await remoteFetch(s, "/logout", {
      method: "POST",
      headers: {
        cookie,
        origin: s.origin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: `csrf=${csrf}`,
    });
    await out.body?.cancel();
    assertEquals(out.status, 303);
    const after = await remoteFetch(s, "/", { headers: { cookie } });
    await after.body?.cancel();
    assertEquals(after.status, 303, "logged out");
    // The window that came in with that login ends at its next message.
    full.input("echo still-here\r");
    await full.until(() => full.closeCode !== null, "the window closed");
    assertMatch(
      JSON.stringify(full.messages),
      /logged out, or the login expired/,
    );
    const dead = socket(s, { cookie, origin: s.origin });
    clients.push(dead);
    await hello(dead, "");
    assert(dead.closeCode !== null, "the old cookie opens nothing");
  } finally {
    for (const c of clients) await c.close();
    await s.stop();
  }
});

Deno.test("remote listener: the user's own windows (domterm new) open on a plain loopback listener, not the TLS one", async () => {
  const s = await startRemote(SHELL);
  const clients: TestClient[] = [];
  try {
    const made = await domterm(s, ["new", "--no-browser", "--", ...SHELL]);
    assertEquals(made.code, 0, made.stderr);
    const url = new URL(made.stdout.trim().split("\n").at(-1)!);
    // Plain HTTP on 127.0.0.1 (no certificate to accept), another port.
    assertEquals(url.protocol, "http:");
    assertEquals(url.hostname, "127.0.0.1");
    assert(url.origin !== s.origin, `${url.origin} is the TLS listener`);
    const params = new URLSearchParams(url.hash.slice(1));
    const key = params.get("key")!;
    const session = Number(params.get("session"));
    assert(key.length > 0 && session > 0, url.hash);
    // The page loads there, and its socket reaches the session with the key.
    const page = await fetch(url.origin + "/");
    await page.body?.cancel();
    assertEquals(page.status, 200);
    const c = new TestClient(
      `ws://127.0.0.1:${url.port}/ws`,
      true,
      { headers: { origin: url.origin } },
    );
    clients.push(c);
    await hello(c, key, session);
    assertEquals(c.closeCode, null, JSON.stringify(c.messages));
    c.input("echo local-$((6*7))\r");
    await c.until(() => c.text.includes("local-42"), "the echo");
    // Without the key it lets nobody in (the login is the TLS listener's).
    const nokey = new TestClient(
      `ws://127.0.0.1:${url.port}/ws`,
      true,
      { headers: { origin: url.origin } },
    );
    clients.push(nokey);
    await hello(nokey, "", session);
    assert(nokey.closeCode !== null, "no key: refused");
  } finally {
    for (const c of clients) c.close();
    await s.stop();
  }
});

Deno.test("remote listener: a browser that logged in before still logs in while its address is locked out", async () => {
  const s = await startRemote(SHELL);
  try {
    // The owner logs in once: a device cookie comes with the login.
    const first = await postLogin(s, PASSWORD);
    await first.body?.cancel();
    const device = first.headers.getSetCookie().find((c) =>
      c.startsWith("domterm_device=")
    );
    assert(device !== undefined, "no device cookie");
    for (const a of ["HttpOnly", "Secure", "SameSite=Strict"]) {
      assert(device.includes(a), `${a} in ${device}`);
    }
    // Someone else at the same address guesses until it is locked out.
    let status = 0;
    for (let i = 0; i < 8 && status !== 429; i++) {
      const bad = await postLogin(s, `guess ${i}`);
      await bad.body?.cancel();
      status = bad.status;
    }
    assertEquals(status, 429, "the address is locked out");
    const stranger = await postLogin(s, PASSWORD);
    await stranger.body?.cancel();
    assertEquals(stranger.status, 429, "a new browser waits too");
    // The owner's browser, with its device cookie, gets in at once.
    const { csrf, cookie } = await loginForm(s);
    const owner = await remoteFetch(s, "/login", {
      method: "POST",
      headers: {
        cookie: `${cookie}; ${device.split(";")[0]}`,
        origin: s.origin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ csrf, password: PASSWORD }).toString(),
    });
    await owner.body?.cancel();
    assertEquals(owner.status, 303);
    // A made-up device id is no one's: still locked out.
    const forged = await loginForm(s);
    const fake = await remoteFetch(s, "/login", {
      method: "POST",
      headers: {
        cookie: `${forged.cookie}; domterm_device=made-up`,
        origin: s.origin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ csrf: forged.csrf, password: PASSWORD })
        .toString(),
    });
    await fake.body?.cancel();
    assertEquals(fake.status, 429);
  } finally {
    await s.stop();
  }
});
