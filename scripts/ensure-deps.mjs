// Installs dependencies when they are missing or older than package-lock.json, so `npm start`,
// `npm test` and `npm run bench` work on a fresh clone with nothing installed by hand.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const lockFile = new URL('package-lock.json', root);
const stamp = new URL('node_modules/.svc-deps-stamp', root);
const want = existsSync(lockFile)
  ? createHash('sha256').update(readFileSync(lockFile)).digest('hex')
  : 'no-lock';
const have = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';

if (have !== want) {
  // `npm install` (not `npm ci`): it follows the lock too, and tolerates optional platform packages
  // (biome, esbuild builds for other systems) that this machine's registry does not serve.
  const args = ['install', '--no-audit', '--no-fund'];
  console.log(`svc: installing dependencies (npm ${args[0]})…`);
  const npmCli = process.env.npm_execpath;
  const result = npmCli
    ? spawnSync(process.execPath, [npmCli, ...args], { stdio: 'inherit', cwd: root })
    : spawnSync('npm', args, { stdio: 'inherit', cwd: root, shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error('svc: dependency installation failed');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, `${want}\n`);
}
