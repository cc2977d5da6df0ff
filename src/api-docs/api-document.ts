import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { withBodyErrorResponses } from '../common/api-error-responses';
import { withAppUserTokenSecurity } from '../security/app-user-token.guard';
import { keySchemes } from '../security/key-schemes';
import { apiDescription, type ApiPrefixes } from './api-description';
import { API_TAGS } from './api-tags';
import { withOtherBodyMediaTypes } from './endpoint';

/** The OpenAPI document of the running app: served at /docs-json, written to openapi.json by `npm run openapi`. */
export function buildApiDocument(app: NestFastifyApplication, prefixes: ApiPrefixes): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('CTA orchestration service: admin console')
    .setDescription(apiDescription(prefixes))
    .setVersion('1.0')
    // Relative to wherever the service is reached.
    .addServer('/')
    // Operations without their own requirement (health, readiness, metrics) need no key.
    .addSecurityRequirements({});
  for (const [name, scheme] of keySchemes(prefixes)) {
    builder.addSecurity(name, scheme);
  }
  for (const tag of API_TAGS) {
    builder.addTag(tag.name, tag.description);
  }
  const document = withOtherBodyMediaTypes(
    withAppUserTokenSecurity(withBodyErrorResponses(SwaggerModule.createDocument(app, builder.build()))),
  );
  // Only the tags with routes (a host may mount fewer features), still in working order.
  const used = new Set(Object.values(document.paths).flatMap((operations) => Object.values(operations).flatMap(tagsOf)));
  document.tags = document.tags?.filter((tag) => used.has(tag.name));
  return document;
}

const tagsOf = (operation: unknown): string[] =>
  operation && typeof operation === 'object' && 'tags' in operation && Array.isArray(operation.tags) ? operation.tags : [];

/** Where the console and its document are served. */
export const DOCS_PATH = '/docs';
export const DOCS_JSON_PATH = '/docs-json';

/** The console's page, its assets and the document: the routes whose answers carry validators (http/response-validators.ts). */
export const isApiDocsRoute = (url: string): boolean => url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`) || url === DOCS_JSON_PATH;

/**
 * Each input of Swagger UI's Authorize dialog takes the focus as it appears, so the last slot (the app-user
 * token) ends up with it and the dialog opens scrolled down to it: a key typed at once would go there. This
 * gives the focus to the first slot, the admin key, whenever the dialog opens.
 */
const FOCUS_FIRST_KEY_SLOT = `new MutationObserver(function () {
  var dialog = document.querySelector('.dialog-ux .modal-ux');
  if (!dialog || dialog.hasAttribute('data-first-slot-focused')) return;
  var input = dialog.querySelector('.auth-container input');
  if (!input) return;
  dialog.setAttribute('data-first-slot-focused', '');
  input.focus();
  dialog.querySelector('.modal-ux-content').scrollTop = 0;
}).observe(document.body, { childList: true, subtree: true });`;

/**
 * The Swagger UI at /docs (and / leading to it) and the document at /docs-json (docs/decisions/0014-admin-console.md);
 * `adjust` changes the document for the app's settings (e.g. approvals required).
 */
export function serveApiDocs(
  app: NestFastifyApplication,
  prefixes: ApiPrefixes,
  adjust: (document: OpenAPIObject) => OpenAPIObject = (document) => document,
): void {
  SwaggerModule.setup(DOCS_PATH, app, adjust(buildApiDocument(app, prefixes)), {
    jsonDocumentUrl: DOCS_JSON_PATH,
    customSiteTitle: 'CTA orchestration service: admin console',
    customJsStr: FOCUS_FIRST_KEY_SLOT,
    // Keys entered in Authorize survive a reload of the page (kept in the browser's local storage).
    swaggerOptions: { persistAuthorization: true, displayRequestDuration: true },
  });
  // The service's root is the console (an operator types the host name alone).
  app
    .getHttpAdapter()
    .getInstance()
    .get('/', (_request, reply) => reply.redirect(DOCS_PATH));
}
