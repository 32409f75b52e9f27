/**
 * A control request that gets no answer says why: nothing listens (no
 * server), a server that took the connection and did not answer in time
 * (busy or stopped), or one that closed it. A subcommand's message follows:
 * a busy server is not reported as a missing one.
 */
import { assert, assertEquals } from "../assert.ts";
import { requestOutcome } from "../../server/control.ts";
import { askAt } from "../../server/commands/sessions.ts";

/** A unix listener at a fresh path that does `onConn` with each connection. */
function listener(
  onConn: (c: Deno.UnixConn) => void,
): { path: string; close: () => void } {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-outcome-" });
  const path = `${dir}/server.sock`;
  const l = Deno.listen({ transport: "unix", path });
  const conns: Deno.UnixConn[] = [];
  (async () => {
    try {
      for await (const c of l) {
        conns.push(c);
        onConn(c);
      }
    } catch { /* closed */ }
  })();
  return {
    path,
    close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

Deno.test("control: no socket is absent, a silent server a timeout, a hang-up closed", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-outcome-" });
  try {
    assertEquals(
      await requestOutcome(`${dir}/none.sock`, { op: "info" }, 300),
      { failure: "absent" },
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const silent = listener(() => {});
  try {
    const t0 = Date.now();
    assertEquals(
      await requestOutcome(silent.path, { op: "info" }, 300),
      { failure: "timeout" },
    );
    assert(Date.now() - t0 >= 250, "waited for the answer");
  } finally {
    silent.close();
  }
  const hangUp = listener((c) => c.close());
  try {
    assertEquals(
      await requestOutcome(hangUp.path, { op: "info" }, 2000),
      { failure: "closed" },
    );
  } finally {
    hangUp.close();
  }
  const answers = listener((c) => {
    c.write(new TextEncoder().encode('{"ok":true,"pid":7}\n')).catch(() => {});
  });
  try {
    assertEquals(
      await requestOutcome(answers.path, { op: "info" }, 2000),
      { response: { ok: true, pid: 7 } },
    );
  } finally {
    answers.close();
  }
});

Deno.test("control: a subcommand says a busy server did not answer, not that none runs", async () => {
  const silent = listener(() => {});
  try {
    const e = await askAt(silent.path, { op: "list" }, 300).then(
      () => null,
      (e: Error) => e,
    );
    assert(e !== null, "no answer is an error");
    assert(/did not answer within/.test(e.message), e.message);
    assert(!/no domterm server is running/.test(e.message), e.message);
  } finally {
    silent.close();
  }
  const e = await askAt("/nonexistent/domterm.sock", { op: "list" }, 300).then(
    () => null,
    (e: Error) => e,
  );
  assert(/no domterm server is running/.test(e?.message ?? ""), e?.message);
});
