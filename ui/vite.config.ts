import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The operator view (docs/decisions/0024-operator-view.md), built by `npm run build` into dist/ui, which the
 * service serves at /{admin}/ui/ under every admin prefix: asset paths are relative (`base: './'`), and
 * everything is bundled (no request leaves the service). Preact's JSX through esbuild, no plugin.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    // The service serves these files; a build report would only add noise to `npm run build`.
    reportCompressedSize: false,
  },
});
