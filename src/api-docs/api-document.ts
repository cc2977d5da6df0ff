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

/** The Swagger UI at /docs and the document at /docs-json (docs/decisions/0014-admin-console.md). */
export function serveApiDocs(app: NestFastifyApplication, prefixes: ApiPrefixes): void {
  SwaggerModule.setup('docs', app, buildApiDocument(app, prefixes), {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'CTA orchestration service: admin console',
    // Keys entered in Authorize survive a reload of the page (kept in the browser's local storage).
    swaggerOptions: { persistAuthorization: true, displayRequestDuration: true },
  });
}
