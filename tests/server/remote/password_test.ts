/** Password hashes: PBKDF2-SHA256 lines, verification, bad lines refused. */
import { assert, assertEquals, assertMatch } from "../../assert.ts";
import {
  bytesEqual,
  hashPassword,
  parsePasswordHash,
  PBKDF2_ITERATIONS,
  verifyPassword,
} from "../../../server/remote/password.ts";

Deno.test("a hash line names its KDF and cost, and verifies only its password", async () => {
  const line = await hashPassword("correct horse");
  assertMatch(
    line,
    /^\$pbkdf2-sha256\$i=600000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/,
  );
  assert(PBKDF2_ITERATIONS >= 600_000);
  const h = parsePasswordHash(`  ${line}\n`);
  assert(typeof h !== "string", String(h));
  assertEquals(h.iterations, 600_000);
  assert(await verifyPassword("correct horse", h));
  assert(!(await verifyPassword("correct horsE", h)));
  assert(!(await verifyPassword("", h)));
});

Deno.test("two hashes of one password differ (random salt)", async () => {
  const a = await hashPassword("same");
  const b = await hashPassword("same");
  assert(a !== b);
});

Deno.test("bad hash lines are refused with a reason", () => {
  const cases: [string, RegExp][] = [
    ["hunter2", /not a domterm password hash/],
    ["$pbkdf2-sha256$i=600000$abc", /form/],
    [
      "$pbkdf2-sha256$n=600000$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAA",
      /iteration/,
    ],
    ["$pbkdf2-sha256$i=1000$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAA", /outside/],
    ["$pbkdf2-sha256$i=600000$!!$AAAAAAAAAAAAAAAAAAAAAAA", /salt/],
    ["$pbkdf2-sha256$i=600000$AAAAAAAAAAA$AAAA", /hash/],
  ];
  for (const [line, re] of cases) {
    const r = parsePasswordHash(line);
    assert(typeof r === "string", `accepted ${line}`);
    assertMatch(r, re);
  }
});

Deno.test("bytesEqual compares length and every byte", () => {
  assert(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])));
  assert(!bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3])));
  assert(!bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0])));
});
