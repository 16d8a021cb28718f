/**
 * The Node.js flags every long-running svc process (`svc serve`, `svc worker`) is started with. They
 * are command-line flags (V8 sizes its heap when it starts), so they live where processes are
 * started: package.json's `start`, the README's systemd units, and the processes the benches start
 * (node-flags.test.ts checks package.json and the README, test/bench/servers.test.ts the benches).
 *
 * --max-semi-space-size=32: a young generation twice V8's default (16 MB semi-spaces). An ingest
 * batch (a 160 KB body parsed into 500 events, then their rows and COPY text) is short-lived
 * garbage; with the default, collections ran often enough to promote part of it, and the server
 * spent 12–27 % of its CPU collecting. Measured on the 2-core machine, server CPU per sync batch:
 * -14 % (median of 6 alternating pairs), for at most 32 MB more memory per process.
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
