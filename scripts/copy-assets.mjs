// Copies the non-TypeScript files the build needs (SQL migrations) from src/ into dist/.
import { cpSync, readdirSync } from 'node:fs';

const src = new URL('../src/', import.meta.url);
const dist = new URL('../dist/', import.meta.url);
const assets = /\.(sql|json|csv)$/;

function copy(rel) {
  for (const entry of readdirSync(new URL(rel, src), { withFileTypes: true })) {
    const path = `${rel}${entry.name}`;
    if (entry.isDirectory()) copy(`${path}/`);
    else if (assets.test(entry.name)) cpSync(new URL(path, src), new URL(path, dist));
  }
}
copy('');
