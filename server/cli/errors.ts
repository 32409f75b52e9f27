/**
 * The two ways a `domterm` command line fails: a usage mistake (exit
 * status 2, printed with a hint) and a runtime failure (exit status 1).
 *
 * @module
 */

/** A mistake on the command line: printed with a hint, exit status 2. */
export class UsageError extends Error {}

/** A runtime failure of a subcommand: printed as `domterm CMD: message`, exit 1. */
export class CommandError extends Error {}
