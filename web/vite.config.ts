/**
 * The web app's build: web/ → dist/web (npm run build). Pages are lazy route modules, so each is its
 * own chunk; ECharts is loaded by the chart component on first use, never by the initial bundle.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
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
