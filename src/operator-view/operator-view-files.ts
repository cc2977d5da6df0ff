import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';

/** One built file of the operator's view, held in memory: it is small (docs/decisions/0024-operator-view.md). */
export interface ViewFile {
  body: Buffer;
  contentType: string;
  /** A strong validator: the SHA-1 of the body, quoted. */
  etag: string;
  /** Vite names assets by their content hash: they never change under one name. */
  immutable: boolean;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Where `npm run build` puts the view (`vite build` into `dist/ui`), seen from this file: from
 * `src/operator-view` when the sources run (ts-jest), from `dist/src/operator-view` in the built package
 * (there `../../dist/ui` does not exist; checked first, since from the sources `../../ui` is the view's source).
 */
const BUILT_VIEW_FOLDERS = [resolve(__dirname, '../../dist/ui'), resolve(__dirname, '../../ui')];

const filesUnder = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)],
  );

/** The built view, by path relative to its folder (`index.html`, `assets/index-3f2a.js`); empty when it was never built. */
export function loadViewFiles(folders: readonly string[] = BUILT_VIEW_FOLDERS): ReadonlyMap<string, ViewFile> {
  const folder = folders.find((candidate) => existsSync(join(candidate, 'index.html')));
  if (folder === undefined) return new Map();
  return new Map(
    filesUnder(folder).map((path) => {
      const body = readFileSync(path);
      const name = relative(folder, path).split('\\').join('/');
      return [
        name,
        {
          body,
          contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
          etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
          immutable: name.startsWith('assets/'),
        },
      ];
    }),
  );
}
