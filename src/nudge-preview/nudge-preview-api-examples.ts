import { BAD_TENANT_EXAMPLE, type RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import type { NudgePreview } from './dto/nudge-preview.dto';

export const PREVIEW_EXAMPLE: NudgePreview = {
  id: 'spring-sale-banner',
  template: '<div class="banner">Spring sale 🌸</div>',
  tenantId: 'default',
  ttl: 600,
};

/** The path parameter of the preview read. */
export const PREVIEW_ID_PARAM = {
  name: 'id',
  description: 'the preview id, URL-encoded (spring-sale-banner: the preview the write example stores)',
  example: PREVIEW_EXAMPLE.id,
};

export const PREVIEW_BODY_EXAMPLES = {
  banner: {
    summary: 'a banner to preview for 10 minutes',
    value: { id: PREVIEW_EXAMPLE.id, template: PREVIEW_EXAMPLE.template, ttl: PREVIEW_EXAMPLE.ttl },
  },
};

/** The error answers of the preview routes (NudgePreviewAdminController, NudgePreviewSdkController). */
export const PREVIEW_ERRORS = {
  write: {
    400: {
      description:
        'NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION: id or template null, missing or empty (the message names each); ' +
        'INVALID_REQUEST: any other invalid field (e.g. ttl not an integer in 1-2592000), malformed x-tenant-id, malformed JSON. ' +
        'One message names every problem of the body: with a field of the wrong type, the code is INVALID_REQUEST and the empty fields are named too',
      examples: [
        [ErrorCode.NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION, 'template must not be null or empty'],
        [ErrorCode.INVALID_REQUEST, 'ttl must be an integer number; id must not be null or empty; template must not be null or empty'],
      ],
    },
  },
  read: { 400: { description: 'INVALID_REQUEST: malformed x-tenant-id', examples: [BAD_TENANT_EXAMPLE] } },
} satisfies Record<string, RouteErrors>;
