/**
 * `domterm install-desktop [--uninstall]`: a freedesktop.org desktop entry
 * (`$XDG_DATA_HOME/applications/domterm.desktop`) and a scalable icon
 * (`$XDG_DATA_HOME/icons/hicolor/scalable/apps/domterm.svg`, the app's own
 * static/icon.svg), so that domterm starts from the desktop's launcher.
 * The entry runs this same domterm (server/self_launcher.ts).
 *
 * @module
 */
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import type { CliContext } from "../cli/handler.ts";
import { CommandError } from "../cli/errors.ts";
import { flag, type ParsedArgs } from "../cli/parse.ts";
import { selfCommand } from "../self_launcher.ts";
import { assetBody } from "../assets.ts";

/** Where the entry and the icon go. */
export interface DesktopPaths {
  entry: string;
  icon: string;
}

/** The paths under `$XDG_DATA_HOME` (a relative value is ignored, as the spec says), else ~/.local/share. */
export function desktopPaths(
  dataHome = Deno.env.get("XDG_DATA_HOME"),
  home = Deno.env.get("HOME") || homedir(),
): DesktopPaths {
  const base = dataHome && isAbsolute(dataHome)
    ? dataHome
    : join(home, ".local", "share");
  return {
    entry: join(base, "applications", "domterm.desktop"),
    icon: join(base, "icons", "hicolor", "scalable", "apps", "domterm.svg"),
  };
}

/**
 * One argument of an Exec key: quoted when it has a reserved character
 * (with `"`, `` ` ``, `$` and `\` escaped inside the quotes), `%` doubled,
 * and then every `\` doubled again, since Exec is a string value.
 */
export function execArgument(arg: string): string {
  let a = arg.replaceAll("%", "%%");
  if (a === "" || /[\s"'\\><~|&;$*?#()`]/.test(a)) {
    a = `"${a.replace(/["`$\\]/g, (c) => `\\${c}`)}"`;
  }
  return a.replaceAll("\\", "\\\\");
}

/** The text of the desktop entry that runs `command`. */
export function desktopEntry(command: string[]): string {
  return [
    "[Desktop Entry]",
    "Type=Application",
    "Version=1.4",
    "Name=domterm",
    "GenericName=Terminal",
    "Comment=A rich terminal emulator in your browser",
    `TryExec=${execArgument(command[0])}`,
    `Exec=${command.map(execArgument).join(" ")}`,
    "Icon=domterm",
    "Terminal=false",
    "Categories=System;TerminalEmulator;",
    "Keywords=shell;prompt;command;commandline;terminal;",
    "",
  ].join("\n");
}

/** Refresh the desktop's cache of entries, when the tool for it is there. */
async function updateDatabase(dir: string): Promise<void> {
  try {
    await new Deno.Command("update-desktop-database", {
      args: ["-q", dir],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
  } catch {
    // Not installed: launchers then find the entry by scanning the directory.
  }
}

async function removeIfThere(path: string): Promise<boolean> {
  try {
    await Deno.remove(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw new CommandError(`cannot remove ${path}: ${(e as Error).message}`);
  }
}

async function writeFile(path: string, content: string): Promise<void> {
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, content);
  } catch (e) {
    throw new CommandError(`cannot write ${path}: ${(e as Error).message}`);
  }
}

/** The subcommand. */
export async function installDesktop(
  a: ParsedArgs,
  ctx: CliContext,
): Promise<number> {
  const paths = desktopPaths();
  if (flag(a, "uninstall")) {
    let removed = 0;
    for (const path of [paths.entry, paths.icon]) {
      if (await removeIfThere(path)) {
        console.log(`removed ${path}`);
        removed++;
      }
    }
    if (removed === 0) {
      console.log(`nothing to remove (no ${paths.entry}, no ${paths.icon})`);
    } else await updateDatabase(dirname(paths.entry));
    return 0;
  }
  const asset = (await ctx.assets())["/icon.svg"];
  if (asset === undefined) {
    throw new CommandError(
      "this build has no icon.svg (run 'deno task build')",
    );
  }
  // Embedded gzip-compressed (server/assets.ts): null asks for plain bytes.
  const { body } = await assetBody(asset, null);
  const icon = typeof body === "string" ? body : new TextDecoder().decode(body);
  await writeFile(paths.icon, icon);
  await writeFile(paths.entry, desktopEntry(selfCommand()));
  console.log(`wrote ${paths.entry}`);
  console.log(`wrote ${paths.icon}`);
  await updateDatabase(dirname(paths.entry));
  return 0;
}
