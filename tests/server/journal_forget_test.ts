/**
 * `domterm forget` and `domterm restore` by number, by name and all, on
 * journals a real server kept (`domterm kill-server` keeps them without
 * restoring them at the next start): forget one by name, one by its
 * number, refuse one that is not there; then `restore all` brings back
 * what is left.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { privateRuntimeEnv } from "../runtime_dir.ts";
import { runDomterm } from "../run_domterm.ts";
import { startLoggedServer } from "./journal_helpers.ts";

interface Restorable {
  n: number;
  name: string | null;
}

Deno.test("journal: forget NAME, forget N, an unknown one refused, restore all", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-forget-test-" });
  const env = privateRuntimeEnv({ DOMTERM_RUNTIME_DIR: dir, PS1: "$ " });
  const restorable = async (): Promise<Restorable[]> => {
    const r = await runDomterm(["list", "--restorable", "--json"], env);
    assertEquals(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const a = await startLoggedServer(env);
  try {
    for (const name of ["web", "db", null]) {
      const r = await runDomterm(
        ["new", "--no-browser", ...(name ? ["--name", name] : [])],
        env,
      );
      assertEquals(r.code, 0, r.stderr);
    }
  } finally {
    await runDomterm(["kill-server"], env);
    await a.child.status;
  }
  const kept = await restorable();
  assertEquals(kept.map((e) => e.name).sort(), ["db", "web", null].sort());

  const byName = await runDomterm(["forget", "web"], env);
  assertEquals(byName.code, 0, byName.stderr);
  const afterName = await restorable();
  assertEquals(afterName.map((e) => e.name).sort(), ["db", null].sort());

  const db = afterName.find((e) => e.name === "db")!;
  const byNumber = await runDomterm(["forget", String(db.n)], env);
  assertEquals(byNumber.code, 0, byNumber.stderr);
  const left = await restorable();
  assertEquals(left.map((e) => e.name), [null]);

  const unknown = await runDomterm(["forget", "nosuch"], env);
  assertEquals(unknown.code, 1);
  assertMatch(unknown.stderr, /nosuch/);
  assertEquals((await restorable()).length, 1, "nothing else went");

  const b = await startLoggedServer(env);
  try {
    const r = await runDomterm(["restore", "all"], env);
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /restored as session \d+/);
    const list = await runDomterm(["list"], env);
    assertEquals(list.stdout.trim().split("\n").length, 2, list.stdout);
    assert(
      (await runDomterm(["list", "--restorable"], env)).stdout.includes(
        "nothing to restore",
      ),
    );
  } finally {
    await runDomterm(["kill-server"], env);
    await b.child.status;
  }
});
