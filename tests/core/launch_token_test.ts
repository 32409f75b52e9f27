/** The launch tokens' SHA-256 and HMAC agree with WebCrypto; tokens parse. */
import { assert, assertEquals } from "../assert.ts";
import {
  base64url,
  hmacSha256,
  launchMac,
  mintLaunchToken,
  parseLaunchToken,
  sha256,
} from "../../core/launch_token.ts";

Deno.test("launch token: sha256 equals WebCrypto's for lengths 0..200", async () => {
  for (let n = 0; n <= 200; n++) {
    const data = crypto.getRandomValues(new Uint8Array(n));
    const want = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
    assertEquals(sha256(data), want, `length ${n}`);
  }
  assertEquals(
    base64url(sha256(new TextEncoder().encode("abc"))),
    "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0",
  );
});

Deno.test("launch token: HMAC-SHA256 equals WebCrypto's (short and long keys)", async () => {
  for (const keyLen of [0, 1, 32, 64, 65, 200]) {
    const key = crypto.getRandomValues(new Uint8Array(keyLen));
    const msg = crypto.getRandomValues(new Uint8Array(keyLen + 7));
    const k = await crypto.subtle.importKey(
      "raw",
      key.length ? key : new Uint8Array(1), // WebCrypto refuses an empty key
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const want = new Uint8Array(await crypto.subtle.sign("HMAC", k, msg));
    // An empty key and a one-zero-byte key are the same HMAC key.
    assertEquals(hmacSha256(key, msg), want, `key length ${keyLen}`);
  }
});

Deno.test("launch token: minted tokens parse, and their mac checks", () => {
  const nonce = new Uint8Array(18).fill(7);
  const t = mintLaunchToken("KEY", nonce, 1234567);
  const p = parseLaunchToken(t)!;
  assertEquals(p.expiry, 1234567);
  assertEquals(p.nonce, base64url(nonce));
  assertEquals(p.mac, launchMac("KEY", p.body));
  assert(p.mac !== launchMac("OTHER", p.body));
  for (const bad of ["", "a.b.c", `${t}x`, t.replace(".", "..")]) {
    assertEquals(parseLaunchToken(bad), null, bad);
  }
});
