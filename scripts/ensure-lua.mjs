// The interpreter the Roblox SDK's tests run under (sdk/roblox/roblox-sdk.test.ts): Debian's
// lua5.1. `npm test` runs this after ensure-deps: when lua5.1 is missing it installs it with apt
// where the machine allows (root with apt-get), and otherwise stops with one sentence saying what
// to install.
import { spawnSync } from 'node:child_process';

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;

if (!has('lua5.1')) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !has('apt-get')) {
    console.error(
      'svc: the Roblox SDK tests need lua5.1 on the PATH: install it (Debian/Ubuntu: sudo apt-get install lua5.1).',
    );
    process.exit(1);
  }
  console.log('svc: installing Lua 5.1 for the Roblox SDK tests (apt-get install lua5.1)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'lua5.1']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`svc: apt-get ${args[0]} failed; install Lua by hand (apt-get install lua5.1).`);
      process.exit(result.status ?? 1);
    }
  }
  if (!has('lua5.1')) {
    console.error('svc: apt installed lua5.1 but it is still not on the PATH.');
    process.exit(1);
  }
}
