// The browser the end-to-end tests drive (test/e2e): Debian's Chromium. `npm test` runs this after
// ensure-deps: when /usr/bin/chromium is missing it installs it with apt where the machine allows
// (root with apt-get), and otherwise stops with one sentence saying what to install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(path)) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!root || !apt || process.env.CHROMIUM_PATH) {
    console.error(
      `svc: the end-to-end tests need Chromium at ${path}: install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.`,
    );
    process.exit(1);
  }
  console.log('svc: installing Chromium for the end-to-end tests (apt-get install chromium)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`svc: apt-get ${args[0]} failed; install Chromium by hand (apt-get install chromium).`);
      process.exit(result.status ?? 1);
    }
  }
  if (!existsSync(path)) {
    console.error(`svc: apt installed Chromium but ${path} is still missing; set CHROMIUM_PATH.`);
    process.exit(1);
  }
}
