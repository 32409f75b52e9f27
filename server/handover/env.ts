/**
 * The environment variable that hands a restarted server its sessions,
 * alone in its module: a `domterm` command checks it without loading
 * the handover (server/handover/give.ts).
 *
 * @module
 */

/** Set in the next server's environment: the socket to take the sessions from. */
export const HANDOVER_ENV = "DOMTERM_HANDOVER";
