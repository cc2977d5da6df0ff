import { ctaBody, examples, machine, sdkHeaders, tagBody } from './fixtures';

/**
 * The tables of the bad-input sweep (malformed-requests.e2e-spec.ts), part one: what every request
 * shares, the whole-body defects, and per JSON endpoint a valid body and the values that spoil each field.
 */

export const TENANT = 'sweep';
const USER = 'ops@example.com';
export const ADMIN = { 'x-tenant-id': TENANT, user: USER };
export const SDK = sdkHeaders(TENANT, '4242');

export interface Request {
  label: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  /** A value sent as JSON, or a string sent as it is. */
  body?: unknown;
}

/** Marks a field whose value is spliced into the JSON text as it is (numbers JSON.stringify cannot write). */
const raw = (text: string) => ({ __raw__: text });
function encode(body: unknown): unknown {
  if (body === undefined || typeof body === 'string') {
    return body;
  }
  const texts: string[] = [];
  const json = JSON.stringify(body, (_key, value) => {
    if (value && typeof value === 'object' && '__raw__' in value) {
      texts.push(value.__raw__);
      return `__raw_${texts.length - 1}__`;
    }
    return value;
  });
  return json.replace(/"__raw_(\d+)__"/g, (_match, index) => texts[Number(index)]);
}

/** `{"a":{"a":…1…}}`, as JSON text (too deep for JSON.stringify's own recursion to write). */
const nested = (depth: number) => raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
const deepArrayText = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

const LONG_NAME = 'n'.repeat(256);
/** 256 characters (code points): one over the limit of names, though each is two UTF-16 units. */
const EMOJI_NAME = '😀'.repeat(256);
/** Values that are no JSON number within range: overflow to Infinity, or past 2^63. */
const OVERFLOWS = [raw('1e400'), raw('-1e400'), 2 ** 64, -(2 ** 64)];

/** Whole-body defects every JSON endpoint must refuse. */
const OVER_THE_LIMIT = 'a body over the limit';
const BODY_DEFECTS: [string, unknown, Record<string, string>?][] = [
  ['unterminated JSON', '{"a": 1'],
  ['a trailing comma', '{"a": 1,}'],
  ['single quotes', "{'a': 1}"],
  ['a bare word', 'undefined'],
  ['NaN', '{"a": NaN}'],
  ['a control character', '{"a": "\u0001"}'],
  ['a lone bracket', ']'],
  ['a number instead of an object', '42'],
  ['a string instead of an object', '"body"'],
  ['true instead of an object', 'true'],
  ['an array instead of an object', '[]'],
  ['an array of objects', '[{}]'],
  ['2,000-deep nested arrays', deepArrayText(2000)],
  ['100,000-deep nested arrays', deepArrayText(100_000)],
  ['text/plain', '{"a": 1}', { 'content-type': 'text/plain' }],
  ['a form', 'a=1&b=2', { 'content-type': 'application/x-www-form-urlencoded' }],
  ['multipart', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', { 'content-type': 'multipart/form-data; boundary=x' }],
  ['XML', '<a>1</a>', { 'content-type': 'application/xml' }],
  [OVER_THE_LIMIT, JSON.stringify({ padding: 'p'.repeat(1024 * 1024 + 10) })],
];

export interface BodyEndpoint {
  label: string;
  method: 'POST' | 'PUT';
  path: () => string;
  headers: Record<string, string>;
  /** A valid body (checked by the seed), fresh on each call. */
  valid: () => Record<string, any>;
  /** Per field: values that make the body invalid; `undefined` = the field left out. */
  fields: Record<string, unknown[]>;
  /** Whether the whole-body defects apply (the SDK launch accepts an empty or null body). */
  rejectsNonObjects?: boolean;
  /** A body over the limit is answered as no body, never refused (the SDK launch: no device is locked out). */
  ignoresOversizedBodies?: boolean;
}

const TYPE_CONFUSION = [null, 1, true, 'text', [], {}];
const STRING_FIELD = [undefined, null, 1, true, [], {}, '', LONG_NAME, EMOJI_NAME];
const TIME_FIELD = ['2024-01-01', 1.5, true, [], {}, ...OVERFLOWS];

export interface Seeded {
  draftCtaId: number;
  liveCtaId: string;
  tagName: string;
  eventName: string;
}

export function bodyEndpoints(seed: Seeded): BodyEndpoint[] {
  let sequence = 0;
  const fresh = (prefix: string) => `${prefix}-sweep-${++sequence}`;
  const ruleWith = (fields: Record<string, unknown>) => ({ ...examples.rule(), ...fields });
  const freshTag = () => tagBody(fresh('tag'));
  const { behaviourTagName: _name, ...tagUpdate } = freshTag();
  const ctaUpdate = () => {
    const { name: _ignored, ...body } = ctaBody();
    return body;
  };
  const ruleDefects = [
    undefined,
    ...TYPE_CONFUSION,
    nested(5000),
    ruleWith({ priority: '5' }),
    ruleWith({ priority: 1.5 }),
    ruleWith({ priority: raw('1e400') }),
    ruleWith({ stateMachineTTL: -1 }),
    ruleWith({ stateMachineTTL: 2 ** 64 }),
    ruleWith({ priority: nested(5000) }),
    ruleWith({ stateToAction: {} }),
    ruleWith({ cohortEligibility: { includes: [], excludes: [] } }),
    ruleWith({ frequency: { session: { limit: -1 } } }),
    ruleWith({ actions: 'show' }),
  ];
  const property = (fields: Record<string, unknown> = {}) => ({ propertyName: 'storeId', type: 'String', isMandatory: true, ...fields });
  const snapshot = (fields: Record<string, unknown> = {}) => ({ ctaId: seed.liveCtaId, activeStateMachines: { k: machine() }, ...fields });
  const snapshotDefects = [
    TYPE_CONFUSION.filter((value) => value !== null && !Array.isArray(value)),
    [[1], ['text'], [null], [[]], [nested(3000)]],
    [
      snapshot({ ctaId: undefined }),
      snapshot({ ctaId: 'abc' }),
      snapshot({ ctaId: -1 }),
      snapshot({ ctaId: 1.5 }),
      snapshot({ ctaId: '99999999999999999999' }),
    ],
    [snapshot({ activeStateMachines: undefined }), snapshot({ activeStateMachines: [] }), snapshot({ activeStateMachines: 'k' })],
    [
      snapshot({ activeStateMachines: { k: { ...machine(), currentState: 2 } } }),
      snapshot({ activeStateMachines: { k: { ...machine(), currentState: undefined } } }),
      snapshot({ activeStateMachines: { k: { ...machine(), lastTransitionAt: '1795372967296' } } }),
      snapshot({ activeStateMachines: { k: { ...machine(), lastTransitionAt: 1.5 } } }),
      ...OVERFLOWS.map((value) => snapshot({ activeStateMachines: { k: { ...machine(), createdAt: value } } })),
      snapshot({ activeStateMachines: { k: { ...machine(), reset: 'true' } } }),
      snapshot({ activeStateMachines: { k: { ...machine(), context: 'c' } } }),
      snapshot({ activeStateMachines: { k: nested(3000) } }),
      snapshot({ activeStateMachines: { k: { ...machine(), context: nested(100_000) } } }),
      snapshot({ resetAt: ['1'] }),
      snapshot({ actionDoneAt: 5 }),
      snapshot({ resetAt: [raw('1e400')] }),
      snapshot({ activeStateMachines: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`m${i}`, machine()])) }),
    ],
  ].flat();
  const tagSnapshotDefects = [
    1,
    'tag',
    [1],
    [{}],
    [{ behaviourTagName: 5 }],
    [{ behaviourTagName: 'store-nudges', exposureRule: { ctasResetAt: [{ ctaId: '1' }] } }],
    [{ behaviourTagName: 'store-nudges', exposureRule: { ctasResetAt: 'x' } }],
    [{ behaviourTagName: 'store-nudges', ctaRelation: { activeCtas: [true] } }],
    [{ behaviourTagName: 'store-nudges', ctaRelation: 'x' }],
    Array.from({ length: 1001 }, () => ({ behaviourTagName: 't' })),
  ];
  const sdkFields = {
    ctas: [...snapshotDefects.map((item) => (Array.isArray(item) ? item : [item]))],
    behaviourTags: tagSnapshotDefects,
  };
  return [
    {
      label: 'create CTA',
      method: 'POST',
      path: () => '/engine/ctas',
      headers: ADMIN,
      valid: () => ctaBody({ name: fresh('cta') }),
      rejectsNonObjects: true,
      fields: {
        name: STRING_FIELD,
        description: [1, true, [], {}],
        tags: [undefined, null, 'onboarding', [1], [''], [LONG_NAME], [null], {}, Array.from({ length: 101 }, (_, i) => `t${i}`)],
        team: STRING_FIELD,
        startTime: TIME_FIELD,
        endTime: TIME_FIELD,
        rule: ruleDefects,
      },
    },
    {
      label: 'update CTA',
      method: 'PUT',
      path: () => `/engine/ctas/${seed.draftCtaId}`,
      headers: ADMIN,
      valid: ctaUpdate,
      rejectsNonObjects: true,
      fields: {
        name: ['renamed', null, 1],
        tags: [undefined, 'x', [1]],
        team: [undefined, null, 1, '', LONG_NAME],
        startTime: TIME_FIELD,
        endTime: TIME_FIELD,
        rule: ruleDefects,
      },
    },
    {
      label: 'create test CTA',
      method: 'POST',
      path: () => '/engine/ctas/test/create',
      headers: ADMIN,
      valid: () => ({ userIds: [101, '9223372036854775807'], expiresInMinutes: 60, rule: examples.rule() }),
      rejectsNonObjects: true,
      fields: {
        userIds: [
          undefined,
          null,
          [],
          101,
          'x',
          [1.5],
          ['abc'],
          ['9223372036854775808'],
          [2 ** 60],
          [{}],
          Array.from({ length: 1001 }, (_, i) => i + 1),
        ],
        expiresInMinutes: [undefined, null, '60', 0, -1, 1.5, 43_201, true, ...OVERFLOWS],
        rule: ruleDefects.slice(0, 10),
      },
    },
    {
      label: 'create behaviour tag',
      method: 'POST',
      path: () => '/engine/behaviour-tags',
      headers: ADMIN,
      valid: freshTag,
      rejectsNonObjects: true,
      fields: {
        behaviourTagName: STRING_FIELD,
        description: [1, [], {}],
        exposureRule: [
          undefined,
          ...TYPE_CONFUSION,
          nested(3000),
          { session: { limit: -1 }, window: { limit: 1, unit: 'days', value: 1 }, lifespan: { limit: 1 } },
        ],
        ctaRelation: [undefined, ...TYPE_CONFUSION, { shownCta: { rule: 'SOME', ctaList: [] }, hideCta: { rule: 'ANY', ctaList: [] } }],
        linkedCtas: [undefined, null, 'x', [true], ['abc'], [-1], [1.5], Array.from({ length: 1001 }, (_, i) => i + 1)],
      },
    },
    {
      label: 'update behaviour tag',
      method: 'PUT',
      path: () => `/engine/behaviour-tags/${encodeURIComponent(seed.tagName)}`,
      headers: ADMIN,
      valid: () => JSON.parse(JSON.stringify(tagUpdate)),
      rejectsNonObjects: true,
      fields: {
        exposureRule: [
          undefined,
          null,
          'x',
          { session: { limit: raw('1e400') }, window: { limit: 1, unit: 'days', value: 1 }, lifespan: { limit: 1 } },
        ],
        ctaRelation: [undefined, [], {}],
        linkedCtas: [undefined, {}, [{}]],
      },
    },
    {
      label: 'upsert events',
      method: 'POST',
      path: () => '/engine/events',
      headers: ADMIN,
      valid: () => ({ events: [{ eventName: fresh('event'), properties: [property()] }] }),
      rejectsNonObjects: true,
      fields: {
        events: [
          undefined,
          ...TYPE_CONFUSION,
          [1],
          [{}],
          [{ eventName: '' }],
          [{ eventName: LONG_NAME }],
          [{ eventName: 5 }],
          [{ eventName: 'e', properties: 'p' }],
          [{ eventName: 'e', properties: [property({ isMandatory: 'yes' })] }],
          [{ eventName: 'e', properties: [property({ propertyName: '' })] }],
          [{ eventName: 'e', properties: [property({ type: nested(3000) })] }],
          [{ eventName: 'e', properties: [property(), property()] }],
          [{ eventName: 'twice' }, { eventName: 'twice' }],
          [{ eventName: 'e', properties: [deepArrayText(10)] }],
        ],
      },
    },
    {
      label: 'replace event properties',
      method: 'PUT',
      path: () => `/engine/events/${encodeURIComponent(seed.eventName)}`,
      headers: ADMIN,
      valid: () => ({ properties: [property()] }),
      rejectsNonObjects: true,
      fields: {
        properties: [
          undefined,
          null,
          'p',
          1,
          {},
          [1],
          [property({ isMandatory: 1 })],
          [property({ propertyName: EMOJI_NAME })],
          [property(), property()],
        ],
      },
    },
    {
      label: 'write nudge preview',
      method: 'POST',
      path: () => '/engine/nudge/preview',
      headers: ADMIN,
      valid: () => ({ id: fresh('preview'), template: '<b>hi</b>', ttl: 60 }),
      rejectsNonObjects: true,
      fields: {
        id: [undefined, null, '', 1, [], {}, 'i'.repeat(5000)],
        template: [undefined, null, '', 1, [], {}],
        ttl: [0, -1, 1.5, '60', 2_592_001, true, ...OVERFLOWS],
      },
    },
    {
      label: 'SDK delta',
      method: 'POST',
      path: () => '/cta/state-machines/snapshot/delta',
      headers: SDK,
      valid: () => ({ ctas: [snapshot()] }),
      rejectsNonObjects: true,
      fields: sdkFields,
    },
    {
      label: 'SDK launch',
      method: 'POST',
      path: () => '/cta/active/state-machines',
      headers: SDK,
      ignoresOversizedBodies: true,
      valid: () => ({ ctas: [snapshot()] }),
      fields: sdkFields,
    },
  ];
}

export function bodyRequests(endpoints: BodyEndpoint[]): Request[] {
  const requests: Request[] = [];
  for (const endpoint of endpoints) {
    const defects = BODY_DEFECTS.filter(
      ([label]) =>
        (endpoint.rejectsNonObjects || label !== 'an array instead of an object') &&
        (!endpoint.ignoresOversizedBodies || label !== OVER_THE_LIMIT),
    );
    for (const [label, body, headers] of defects) {
      requests.push({
        label: `${endpoint.label}: ${label}`,
        method: endpoint.method,
        path: endpoint.path(),
        headers: { ...endpoint.headers, ...headers },
        body,
      });
    }
    for (const [field, values] of Object.entries(endpoint.fields)) {
      values.forEach((value, index) => {
        const body = endpoint.valid();
        if (value === undefined) {
          delete body[field];
        } else {
          body[field] = value;
        }
        requests.push({
          label: `${endpoint.label}: ${field} #${index} (${value === undefined ? 'missing' : JSON.stringify(encode(value))?.slice(0, 40)})`,
          method: endpoint.method,
          path: endpoint.path(),
          headers: endpoint.headers,
          body: encode(body),
        });
      });
    }
  }
  return requests;
}
