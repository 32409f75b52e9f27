/**
 * Launch tokens on the server: each is good once, before its expiry, for
 * this server's key; the URL a browser opens has a token, not the key; and
 * POST /launch trades a token for the key over real HTTP.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  LAUNCH_PATH,
  LAUNCH_TOKEN_MS,
  LaunchTokens,
  launchUrl,
  mintLaunchToken,
} from "../../server/launch_token.ts";
import { startServer } from "../../server/http.ts";

Deno.test("launch tokens: once each, before expiry, for this key only", () => {
  const now = 1_000_000;
  const tokens = new LaunchTokens("KEY");
  const t = mintLaunchToken("KEY", now);
  assert(tokens.redeem(t, now + 1));
  assertEquals(tokens.redeem(t, now + 2), false, "used twice");
  assertEquals(
    tokens.redeem(mintLaunchToken("KEY", now), now + LAUNCH_TOKEN_MS),
    false,
    "expired",
  );
  assertEquals(tokens.redeem(mintLaunchToken("OTHER", now), now), false);
  assertEquals(
    tokens.redeem(mintLaunchToken("KEY", now, 10 * LAUNCH_TOKEN_MS), now),
    false,
    "good for too long",
  );
  assertEquals(tokens.redeem("garbage", now), false);
});

Deno.test("launch tokens: the opened URL has a token in place of the key", () => {
  const url = launchUrl("http://127.0.0.1:4242/#key=SECRET&session=3&views=2");
  assert(!url.includes("SECRET"), url);
  const hash = new URLSearchParams(new URL(url).hash.slice(1));
  assertEquals([...hash.keys()], ["launch", "session", "views"]);
  assertEquals(hash.get("session"), "3");
  assert(new LaunchTokens("SECRET").redeem(hash.get("launch")!));
  // A share link (its token is not the server key) and other URLs stay.
  for (
    const same of [
      "http://127.0.0.1:4242/share#key=SHARE&session=1",
      "file:///tmp/saved.html",
      "http://127.0.0.1:4242/#window=2",
    ]
  ) assertEquals(launchUrl(same), same);
});

Deno.test("launch tokens: POST /launch answers the key once; GET is refused", async () => {
  const s = startServer({
    command: "/bin/sh",
    args: [],
    assets: { "/": { type: "text/html", body: "<!DOCTYPE html>" } },
    log: () => {},
  });
  try {
    const at = `http://127.0.0.1:${s.port}${LAUNCH_PATH}`;
    const token = new URLSearchParams(new URL(launchUrl(s.url)).hash.slice(1))
      .get("launch")!;
    const first = await fetch(at, { method: "POST", body: token });
    assertEquals(first.status, 200);
    assertEquals(await first.json(), { key: s.key });
    const again = await fetch(at, { method: "POST", body: token });
    assertEquals(again.status, 403);
    assert(!(await again.text()).includes(s.key));
    const get = await fetch(at);
    assertEquals(get.status, 405);
    await get.body?.cancel();
  } finally {
    await s.shutdown();
  }
});
