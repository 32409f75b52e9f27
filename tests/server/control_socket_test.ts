/**
 * The control socket's listener (server/control.ts listenControl): once
 * its close() has resolved, the file is gone and a server that binds the
 * same path afterwards keeps its socket (restart-server: Deno removes a
 * UNIX listener's file when the listener is finally dropped, which once
 * removed the new server's socket and left `domterm` starting a second
 * server in the foreground).
 */
import { assert, assertEquals } from "../assert.ts";
import { listenControl, request } from "../../server/control.ts";

const exists = (p: string) => {
  try {
    Deno.statSync(p);
    return true;
  } catch {
    return false;
  }
};

Deno.test("control socket: a path bound after close() resolves keeps its file and answers", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-ctl-" });
  const path = `${dir}/server.sock`;
  try {
    const old = await listenControl(path, {
      handle: () => Promise.resolve({ ok: true, pid: 1 }),
    });
    assertEquals((await request(path, { op: "info" }))?.pid, 1);
    await old.close();
    assert(!exists(path), "the old socket's file is gone");
    const next = await listenControl(path, {
      handle: () => Promise.resolve({ ok: true, pid: 2 }),
    });
    await new Promise((r) => setTimeout(r, 200));
    assert(exists(path), "the new socket's file is still there");
    assertEquals((await request(path, { op: "info" }))?.pid, 2);
    await next.close();
    assert(!exists(path));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("control socket: closing twice removes nothing of a newer server", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-ctl-" });
  const path = `${dir}/server.sock`;
  try {
    const old = await listenControl(path, {
      handle: () => Promise.resolve({ ok: true, pid: 1 }),
    });
    await old.close();
    const next = await listenControl(path, {
      handle: () => Promise.resolve({ ok: true, pid: 2 }),
    });
    await old.close();
    assertEquals((await request(path, { op: "info" }))?.pid, 2);
    await next.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
