import { assertEquals } from "../assert.ts";
import {
  missingPackages,
  REQUIREMENTS,
} from "../../scripts/provision_tests.ts";

Deno.test("provision: missing programs map to their Debian packages, once each", () => {
  const cases: [string[], string[]][] = [
    [[], []],
    [["ps", "top"], ["procps"]],
    [["nvim", "emacs", "sshd"], ["emacs-nox", "neovim", "openssh-server"]],
    [["tic", "desktop-file-validate"], ["desktop-file-utils", "ncurses-bin"]],
  ];
  for (const [absent, want] of cases) {
    const got = missingPackages(REQUIREMENTS, (c) => !absent.includes(c));
    assertEquals(got, want, absent.join(","));
  }
});

Deno.test("provision: the script passes on this machine (everything installed)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../scripts/provision_tests.ts", import.meta.url).pathname,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(
    out.code,
    0,
    new TextDecoder().decode(out.stderr),
  );
});

Deno.test("provision: a machine without apt-get and programs gets one message and exit 1", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Only deno itself: no apt-get, no sudo, no programs.
    await Deno.symlink(Deno.execPath(), `${dir}/deno`);
    const out = await new Deno.Command(`${dir}/deno`, {
      args: [
        "run",
        "-A",
        new URL("../../scripts/provision_tests.ts", import.meta.url).pathname,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { PATH: dir },
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 1, err);
    assertEquals(
      err.includes("The tests need programs this machine lacks"),
      true,
      err,
    );
    assertEquals(err.includes("vttest"), true, err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
