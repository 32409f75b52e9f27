/**
 * A server whose first window opens in domterm's own browser listens on
 * the port the last such window was served from, when it is free (issue
 * 31 §7): the page's origin stays the same, so the browser profile's HTTP
 * and code caches (per origin) hold the client's script at the next cold
 * start. A taken port is left alone.
 */
import { assert, assertEquals } from "../assert.ts";
import { privateRuntimeEnv } from "../runtime_dir.ts";
import {
  rememberedWindowPort,
  rememberWindowPort,
  windowPortFile,
} from "../../server/browser.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

Deno.test("window port: remembered, given back while free, not when taken", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-port-" });
  try {
    assertEquals(rememberedWindowPort(dir), 0, "nothing remembered yet");
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    await rememberWindowPort(port, dir);
    assertEquals(
      (await Deno.readTextFile(windowPortFile(dir))).trim(),
      String(port),
    );
    assertEquals(rememberedWindowPort(dir), 0, "taken: any port");
    l.close();
    assertEquals(rememberedWindowPort(dir), port, "free: that port");
    await Deno.writeTextFile(windowPortFile(dir), "80\n");
    assertEquals(rememberedWindowPort(dir), 0, "a privileged port is not used");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Runs `domterm` with a "Chromium" (CHROME_PATH, as domterm finds its
 * own) that notes its launcher; the port of the URL the server writes for
 * it, then the server is stopped.
 */
async function firstWindowPort(dir: string): Promise<number> {
  const fake = `${dir}/chromium.sh`;
  await Deno.writeTextFile(
    fake,
    "#!/bin/sh\n" +
      'for a; do case "$a" in --app=file://*) f="${a#--app=file://}";; esac; done\n' +
      `echo "$f" > ${dir}/called.tmp && mv ${dir}/called.tmp ${dir}/called\n`,
    { mode: 0o755 },
  );
  await Deno.remove(`${dir}/called`).catch(() => {});
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--", "bash", "--norc", "-i"],
    env: privateRuntimeEnv({
      PS1: "$ ",
      CHROME_PATH: fake,
      XDG_CONFIG_HOME: `${dir}/config`,
    }),
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    for (let i = 0; i < 3000; i++) {
      const html = (await Deno.readTextFile(`${dir}/called`).catch(() => ""))
        .trim();
      const js = html
        ? await Deno.readTextFile(html.replace(/\.html$/, ".js")).catch(() =>
          ""
        )
        : "";
      const m = js.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        // Remembered once the URL is written: wait for the file.
        for (let j = 0; j < 500; j++) {
          const saved = await Deno.readTextFile(
            windowPortFile(`${dir}/config/domterm`),
          ).catch(() => "");
          if (saved.trim() === m[1]) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        return Number(m[1]);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("no URL written for the browser");
  } finally {
    server.kill("SIGTERM");
    await server.status;
  }
}

Deno.test("window port: the next server's first window is served from the same origin; a taken port is left alone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-port-" });
  try {
    const first = await firstWindowPort(dir);
    const second = await firstWindowPort(dir);
    assertEquals(second, first, "the same port again");
    // Something else holds it now: any other port.
    const l = Deno.listen({ hostname: "127.0.0.1", port: first });
    try {
      const third = await firstWindowPort(dir);
      assert(third !== first, `listened on the taken port ${third}`);
    } finally {
      l.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
