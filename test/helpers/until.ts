/** Waiting on something another process does, in the tests that run several. */

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it returns true; throws with `what` (and the last detail) at
 * the deadline. */
export async function until(
  what: string,
  timeoutMs: number,
  check: () => boolean | Promise<boolean>,
  detail: () => unknown = () => '',
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}: ${JSON.stringify(await detail())}`,
      );
    }
    await sleep(everyMs);
  }
}
