import type { ApiBodyOptions } from '@nestjs/swagger';
import type { MediaTypeObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { BAD_TENANT_EXAMPLE, type ErrorAnswer, type ErrorExample, type RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import type { CohortRecord } from './cohort-record';

const BELOW_5_2 = { all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] };
const TENTH_OF_APP = { all: [{ attribute: 'packageName', op: 'eq', value: 'com.example.app' }, { bucket: { from: 0, to: 10 } }] };

export const STATIC_RECORD: CohortRecord = {
  name: 'beta-testers',
  description: 'Users who joined the beta programme',
  kind: 'static',
  rule: null,
  memberCount: 3,
  usedBy: ['12'],
  createdAt: 1795372967296,
  createdBy: 'alice@example.com',
  lastUpdatedAt: 1795372990000,
  lastUpdatedBy: 'alice@example.com',
  tenantId: 'default',
};
export const RULE_RECORD: CohortRecord = {
  ...STATIC_RECORD,
  name: 'old-app-versions',
  description: 'Users on app versions below 5.2',
  kind: 'rule',
  rule: BELOW_5_2 as CohortRecord['rule'],
  memberCount: null,
  usedBy: [],
  lastUpdatedAt: null,
  lastUpdatedBy: null,
};

/** The path parameters of the routes of one cohort and of one member. */
export const COHORT_NAME_PARAM = {
  name: 'name',
  description: 'the cohort name (beta-testers: the static cohort the create example makes)',
  example: 'beta-testers',
};
/** The delete example removes a cohort of its own, so the member examples below it still find beta-testers. */
export const DELETED_COHORT_PARAM = {
  name: 'name',
  description: 'the cohort name (example-app-10pct: the rule cohort the bucket create example makes, which nothing names)',
  example: 'example-app-10pct',
};

/** What the cohort examples need (exampleNeeds of their routes). */
export const COHORT_EXAMPLE_NEEDS = {
  staticCohort: 'the static cohort beta-testers: the static example of Create a cohort first',
  deletedCohort: 'the cohort example-app-10pct: the bucket example of Create a cohort first',
};
export const MEMBER_ID_PARAM = { name: 'userId', description: 'a signed 64-bit decimal integer', example: '1001' };

export const COHORT_BODY_EXAMPLES = {
  create: {
    static: {
      summary: 'a list of users',
      value: { name: 'beta-testers', description: 'Users who joined the beta programme', kind: 'static' },
    },
    appVersion: { summary: 'users on app versions below 5.2', value: { name: 'old-app-versions', kind: 'rule', rule: BELOW_5_2 } },
    bucket: { summary: '10% of users of com.example.app', value: { name: 'example-app-10pct', kind: 'rule', rule: TENTH_OF_APP } },
  },
  update: { description: { value: { description: 'Users who joined the beta programme in 2026' } } },
};

/** The formats of a member upload, for the upload routes' descriptions and their CSV body. */
export const CSV_FORMAT =
  'As `text/csv` (or `text/plain`): one user id (a signed 64-bit decimal integer) per line, an optional first line ' +
  '`userId`, blank lines ignored; read as a stream, up to COHORT_UPLOAD_LIMIT_BYTES (default 256 MiB; more → 413 ' +
  'PAYLOAD_TOO_LARGE). As JSON: `{"userIds": [...]}` with up to 100,000 ids, JSON integers or decimal strings. ' +
  'Bad ids → 400 INVALID_REQUEST naming each by its line (numbered from 1, the header line included) or its index, ' +
  'the first 20 and how many more, and nothing changes. A cohort holds at most 1,000,000 members.';

/** The JSON body of the member routes: the ids as JSON integers or decimal strings. */
export const MEMBER_IDS_BODY: ApiBodyOptions = {
  required: true,
  schema: {
    type: 'object',
    properties: {
      userIds: {
        type: 'array',
        items: {
          oneOf: [
            { type: 'integer', format: 'int64' },
            { type: 'string', pattern: '^-?\\d+$' },
          ],
        },
      },
    },
  },
  examples: { ids: { value: { userIds: [1001, '1002', '-9223372036854775808'] } } },
};

const CSV_BODY: MediaTypeObject = {
  schema: { type: 'string', description: CSV_FORMAT },
  example: 'userId\n1001\n1002\n-9223372036854775808\n',
};
/** The upload routes' CSV bodies, beside the JSON one. */
export const CSV_MEMBER_BODIES = { 'text/csv': CSV_BODY, 'text/plain': CSV_BODY };

export const MEMBER_CHANGE_EXAMPLES = {
  upload: { added: 3, removed: 0, memberCount: 3 },
  remove: { added: 0, removed: 1, memberCount: 2 },
};

const MISSING_USER: ErrorExample = [ErrorCode.INVALID_REQUEST, "header 'user' is required"];
const BAD_TENANT: ErrorAnswer = { description: 'INVALID_REQUEST: malformed x-tenant-id', examples: [BAD_TENANT_EXAMPLE] };
const UNKNOWN_COHORT: ErrorAnswer = {
  description: 'COHORT_NOT_FOUND: the tenant has no cohort of this name',
  examples: [[ErrorCode.COHORT_NOT_FOUND, "cohort 'beta-testers' does not exist"]],
};
const BAD_MEMBERS: ErrorAnswer = {
  description:
    'INVALID_REQUEST: bad ids (the message names each by its line or index, up to 20; nothing changed), a rule cohort, more than 100,000 JSON ids, more than 1,000,000 members, a missing user header',
  examples: [
    [
      ErrorCode.INVALID_REQUEST,
      'line 4: "abc" is not a user id (a signed 64-bit integer); line 9: "12 34" is not a user id (a signed 64-bit integer)',
    ],
    [ErrorCode.INVALID_REQUEST, 'userIds[1]: "x" is not a signed 64-bit integer; userIds[3]: true is not a signed 64-bit integer'],
    [ErrorCode.INVALID_REQUEST, "cohort 'old-app-versions' is a rule cohort: only static cohorts have members"],
    MISSING_USER,
  ],
};
const notMediaType = (types: string): ErrorAnswer => ({
  description: `UNSUPPORTED_MEDIA_TYPE: a body that is not ${types}`,
  examples: [[ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Media Type']],
});

/** The error answers of the cohort routes (CohortsController). */
export const COHORT_ERRORS = {
  create: {
    400: {
      description:
        'INVALID_REQUEST: a bad name (characters, length, `all`), description, kind or rule (one message names every problem, ' +
        'with its path); COHORT_DUPLICATE_NAME: the tenant has a cohort of this name',
      examples: [
        [ErrorCode.INVALID_REQUEST, "kind must be one of the following values: static, rule; name 'all' is reserved: every user is in it"],
        [ErrorCode.INVALID_REQUEST, 'rule.all[0].attribute: "osVersion" is not one of appVersion, packageName, hotpatchVersion'],
        [ErrorCode.COHORT_DUPLICATE_NAME, "a cohort named 'beta-testers' already exists"],
        MISSING_USER,
      ],
    },
  },
  list: { 400: BAD_TENANT },
  get: { 400: BAD_TENANT, 404: UNKNOWN_COHORT },
  update: {
    400: {
      description: 'INVALID_REQUEST: a bad description or rule, a rule for a static cohort, name or kind sent',
      examples: [
        [ErrorCode.INVALID_REQUEST, 'kind cannot be changed (delete the cohort and create it again)'],
        [ErrorCode.INVALID_REQUEST, 'rule: static cohorts have no rule (their members are uploaded)'],
        MISSING_USER,
      ],
    },
    404: UNKNOWN_COHORT,
  },
  delete: {
    400: {
      description:
        "COHORT_IN_USE: live, scheduled or paused CTAs (named in the message), or another cohort's rule, name the cohort; INVALID_REQUEST: a missing user header",
      examples: [
        [
          ErrorCode.COHORT_IN_USE,
          "cohort 'beta-testers' is named by live, scheduled or paused CTAs 12; conclude, terminate or edit them first",
        ],
        MISSING_USER,
      ],
    },
    404: UNKNOWN_COHORT,
  },
  uploadMembers: {
    400: BAD_MEMBERS,
    404: UNKNOWN_COHORT,
    413: {
      description: 'PAYLOAD_TOO_LARGE: a CSV upload over COHORT_UPLOAD_LIMIT_BYTES, or a JSON body over 4 MiB',
      examples: [[ErrorCode.PAYLOAD_TOO_LARGE, 'the upload is larger than 268435456 bytes (COHORT_UPLOAD_LIMIT_BYTES)']],
    },
    415: notMediaType('application/json, text/csv or text/plain'),
  },
  removeMembers: { 400: BAD_MEMBERS, 404: UNKNOWN_COHORT, 415: notMediaType('application/json') },
  isMember: {
    400: {
      description: 'INVALID_REQUEST: a userId that is not a signed 64-bit integer, or a rule cohort',
      examples: [[ErrorCode.INVALID_REQUEST, 'userId "abc" is not a signed 64-bit integer']],
    },
    404: UNKNOWN_COHORT,
  },
} satisfies Record<string, RouteErrors>;
