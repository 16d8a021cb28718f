/**
 * The web app's build: web/ → dist/web (npm run build). Pages are lazy route modules, so each is its
 * own chunk; ECharts is loaded by the chart component on first use, never by the initial bundle.
 * The Roblox SDK module (sdk/roblox/Svc.lua) is served as /downloads/Svc.lua from that one copy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const SVC_LUA = join(import.meta.dirname, '../sdk/roblox/Svc.lua');
/** The SDK page links here (web/src/pages/sdk/snippets.ts SVC_LUA_PATH). */
const SVC_LUA_PATH = '/downloads/Svc.lua';

/** Emits sdk/roblox/Svc.lua into the build as downloads/Svc.lua and serves it in the dev server. */
function svcLua(): Plugin {
  return {
    name: 'svc-lua',
    buildStart() {
      this.addWatchFile(SVC_LUA);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: SVC_LUA_PATH.slice(1), source: readFileSync(SVC_LUA) });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0];
        if (path !== SVC_LUA_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
        const body = readFileSync(SVC_LUA);
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Content-Length', body.length);
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), svcLua()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The build report prints every chunk's gzip size; bench/web.ts checks the initial total.
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    // `npm run web:dev`: Vite's dev server in front of `npm start` on :8080.
    proxy: {
      '/api': 'http://localhost:8080',
      '/openapi.json': 'http://localhost:8080',
      '/docs': 'http://localhost:8080',
    },
  },
});
