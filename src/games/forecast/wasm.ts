/**
 * The augurs WASM modules, instantiated synchronously once per process. The package's `exports`
 * do not list the `.wasm` files, so they are found next to the resolved JS entry point and read
 * with fs: no fetch, no network, and forecasts stay synchronous functions.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { AutoETS, initSync } from '@bsull/augurs/ets';

let ready = false;

function wasmBytes(entry: string, file: string): Buffer {
  const js = createRequire(import.meta.url).resolve(entry);
  return readFileSync(new URL(`./${file}`, pathToFileURL(js)));
}

/** The AutoETS class, its module instantiated on first use. */
export function autoEts(): typeof AutoETS {
  if (!ready) {
    initSync({ module: wasmBytes('@bsull/augurs/ets', 'ets_bg.wasm') });
    ready = true;
  }
  return AutoETS;
}
