/**
 * The shell integration scripts, embedded as text: the `.sh` / `.zsh` /
 * `.fish` files next to this module are imported as text modules, so they
 * travel inside `deno compile` and `deno bundle` output and need no file
 * system access at run time. The files stay plain scripts that can be read,
 * linted and sourced by hand.
 *
 * @module
 */

import bash from "./bash.sh" with { type: "text" };
import zsh from "./zsh.zsh" with { type: "text" };
import fish from "./fish.fish" with { type: "text" };

/** Integration script for bash (>= 4.4), to be sourced by an interactive bash. */
export const bashScript: string = bash;
/** Integration script for zsh, to be sourced by an interactive zsh. */
export const zshScript: string = zsh;
/** Integration script for fish, to be sourced by an interactive fish. */
export const fishScript: string = fish;
