import { loadAppConfig } from './config/app-config';
import { createHttpApp } from './http-app';
import { buildApiDocument } from './api-docs/api-document';

/** The published contract sits at the repository root (`npm run openapi`) and ships in the package. */
export const API_CONTRACT_FILE = 'openapi.json';

/** The configuration the contract describes: every default (prefixes `engine` and `cta`), whatever the environment says. */
const CONTRACT_ENV = { DB_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', SCHEDULER_INTERVAL_MS: '0' };

/** The document the standalone app serves at /docs-json, as the text of openapi.json. */
export async function renderApiContract(): Promise<string> {
  const config = loadAppConfig(CONTRACT_ENV);
  const app = await createHttpApp(config);
  try {
    return `${JSON.stringify(buildApiDocument(app, config), null, 2)}\n`;
  } finally {
    await app.close();
  }
}
