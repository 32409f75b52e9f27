/** Login sessions (idle and absolute expiry), cookies and CSRF tokens. */
import { assert, assertEquals, assertMatch } from "../../assert.ts";
import {
  AuthSessions,
  cookieHeader,
  csrfMatches,
  parseCookies,
} from "../../../server/remote/auth_sessions.ts";

Deno.test("a session lives while used and dies after the idle time", () => {
  const a = new AuthSessions({ idleMs: 1000, absoluteMs: 10_000 });
  const s = a.create("1.2.3.4", 0);
  assert(s.id.length >= 32 && s.csrf.length >= 32 && s.id !== s.csrf);
  assertEquals(a.get(s.id, 900)?.id, s.id);
  assertEquals(a.get(s.id, 1800)?.id, s.id, "the idle clock restarted");
  assertEquals(a.get(s.id, 2900), null, "idle too long");
  assertEquals(a.get(s.id, 2901), null, "and forgotten");
});

Deno.test("a look without touch does not restart the idle clock", () => {
  const a = new AuthSessions({ idleMs: 1000, absoluteMs: 10_000 });
  const s = a.create("x", 0);
  assert(a.get(s.id, 900, false));
  assertEquals(a.get(s.id, 1100, false), null);
});

Deno.test("a session dies at the absolute expiry however busy", () => {
  const a = new AuthSessions({ idleMs: 1000, absoluteMs: 3000 });
  const s = a.create("x", 0);
  for (let t = 500; t <= 3000; t += 500) assert(a.get(s.id, t), `at ${t}`);
  assertEquals(a.get(s.id, 3001), null);
  assertEquals(a.cookieMaxAge(s, 1000), 2);
});

Deno.test("unknown, empty and logged-out ids are no session", () => {
  const a = new AuthSessions();
  const s = a.create("x");
  assertEquals(a.get(undefined), null);
  assertEquals(a.get(""), null);
  assertEquals(a.get(s.id + "x"), null);
  a.delete(s.id);
  assertEquals(a.get(s.id), null);
});

Deno.test("cookies: parsed by name, set HttpOnly, Secure, SameSite=Strict", () => {
  const c = parseCookies("a=1; domterm_auth=xyz ;b=2; a=3");
  assertEquals(c.get("a"), "1");
  assertEquals(c.get("domterm_auth"), "xyz");
  assertEquals(parseCookies(null).size, 0);
  const h = cookieHeader("domterm_auth", "v", 60);
  assertMatch(h, /^domterm_auth=v; /);
  for (
    const attr of [
      "HttpOnly",
      "Secure",
      "SameSite=Strict",
      "Max-Age=60",
      "Path=/",
    ]
  ) {
    assert(h.includes(attr), `${attr} in ${h}`);
  }
});

Deno.test("CSRF tokens: equal only, and an empty one never matches", () => {
  assert(csrfMatches("abc", "abc"));
  assert(!csrfMatches("abd", "abc"));
  assert(!csrfMatches("", ""));
  assert(!csrfMatches(null, "abc"));
  assert(!csrfMatches("abc", undefined));
});
