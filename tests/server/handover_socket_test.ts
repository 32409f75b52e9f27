/**
 * The handover socket (server/handover/unix_socket.ts): frames with fds
 * (SCM_RIGHTS) between two ends made with libc, large frames, a pidfd.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  closeFd,
  connectUnix,
  pidfdOpen,
  UnixListener,
} from "../../server/handover/unix_socket.ts";

Deno.test("handover socket: frames carry JSON, binary data and fds", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-hsock-" });
  const listener = new UnixListener(`${dir}/h.sock`);
  const accepted = listener.accept();
  const client = await connectUnix(`${dir}/h.sock`);
  const server = await accepted;
  const pidfd = pidfdOpen(Deno.pid);
  assert(pidfd !== null, "pidfd_open works here");
  const big = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => i % 251);
  // Sent while the other side reads: the kernel buffer is far smaller.
  const sending = (async () => {
    await client.send({ hello: 1 }, new Uint8Array([1, 2, 3]), [pidfd!]);
    await client.send({ second: "x".repeat(100_000) }, big, [pidfd!, pidfd!]);
    await client.send({ third: true });
  })();
  const one = await server.receive();
  assertEquals(one?.json, { hello: 1 });
  assertEquals([...one!.binary], [1, 2, 3]);
  assertEquals(one!.fds.length, 1);
  assert(one!.fds[0] !== pidfd, "a new fd in the receiver");
  const info = Deno.readTextFileSync(`/proc/self/fdinfo/${one!.fds[0]}`);
  assert(info.includes(`Pid:\t${Deno.pid}`), info);
  const two = await server.receive();
  assertEquals((two!.json as { second: string }).second.length, 100_000);
  assertEquals(two!.binary, big);
  assertEquals(two!.fds.length, 2);
  const three = await server.receive();
  assertEquals(three, {
    json: { third: true },
    binary: new Uint8Array(0),
    fds: [],
  });
  await sending;
  client.close();
  assertEquals(await server.receive(), null, "end of stream");
  for (const fd of [...one!.fds, ...two!.fds, pidfd!]) closeFd(fd);
  server.close();
  listener.close();
  Deno.removeSync(dir, { recursive: true });
});
