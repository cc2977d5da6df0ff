import { type BodyEndpoint, ADMIN, type Request, SDK, type Seeded } from './malformed-bodies';
import { ctaBody, examples } from './fixtures';

/** The tables of the bad-input sweep (malformed-requests.e2e-spec.ts), part two: every route spoilt through its headers, paths and methods. */

/** Every route with a harmless valid call, to spoil through headers, paths and methods. */
export function routes(seed: Seeded, endpoints: BodyEndpoint[]): Request[] {
  const bodies: Request[] = endpoints.map((endpoint) => ({
    label: endpoint.label,
    method: endpoint.method,
    path: endpoint.path(),
    headers: endpoint.headers,
    body: endpoint.valid(),
  }));
  return [
    ...bodies,
    { label: 'list CTAs', method: 'GET', path: '/engine/ctas', headers: ADMIN },
    { label: 'get CTA', method: 'GET', path: `/engine/ctas/${seed.draftCtaId}`, headers: ADMIN },
    { label: 'CTA status', method: 'PUT', path: `/engine/ctas/${seed.draftCtaId}/live`, headers: ADMIN },
    { label: 'filters', method: 'GET', path: '/engine/filters', headers: ADMIN },
    { label: 'delete test CTA', method: 'DELETE', path: '/engine/ctas/test/1', headers: ADMIN },
    { label: 'list tags', method: 'GET', path: '/engine/behaviour-tags', headers: ADMIN },
    { label: 'list events', method: 'GET', path: '/engine/events', headers: ADMIN },
    { label: 'event names', method: 'GET', path: '/engine/events/list/names', headers: ADMIN },
    { label: 'get event', method: 'GET', path: `/engine/events/${seed.eventName}`, headers: ADMIN },
    { label: 'delete event', method: 'DELETE', path: `/engine/events/${seed.eventName}`, headers: ADMIN },
    { label: 'SDK preview', method: 'GET', path: '/cta/nudge/preview/some-preview', headers: SDK },
  ];
}

/** The admin writes that record their operator (docs/decisions/0001-wire-rules-and-errors.md: `user` required). */
const USER_HEADER_ROUTES = ['create CTA', 'update CTA', 'create test CTA', 'create behaviour tag', 'update behaviour tag'];
const BAD_TENANTS = ['has space', 't'.repeat(65), 'ténant', '../etc', 'a/b', '😀'];
const BAD_USERS = [' ', 'u'.repeat(256)];
const BAD_SDK_USERS = ['', 'abc', '1.5', '1e3', '9223372036854775808', '-9223372036854775809', '١٢٣', '0x10', '12 34'];

export function headerRequests(all: Request[]): Request[] {
  const requests: Request[] = [];
  for (const route of all) {
    for (const tenant of BAD_TENANTS) {
      requests.push({
        ...route,
        label: `${route.label}: x-tenant-id ${tenant.slice(0, 20)}`,
        headers: { ...route.headers, 'x-tenant-id': tenant },
      });
    }
    if (route.headers === SDK) {
      if (route.path.startsWith('/cta/nudge')) continue;
      for (const userId of BAD_SDK_USERS) {
        requests.push({ ...route, label: `${route.label}: auth-userid '${userId}'`, headers: { ...route.headers, 'auth-userid': userId } });
      }
      const { 'auth-userid': _missing, ...withoutUser } = route.headers;
      requests.push({ ...route, label: `${route.label}: no auth-userid`, headers: withoutUser });
    } else if (USER_HEADER_ROUTES.includes(route.label)) {
      for (const user of BAD_USERS) {
        requests.push({ ...route, label: `${route.label}: user '${user.slice(0, 10)}'`, headers: { ...route.headers, user } });
      }
      const { user: _missing, ...withoutUser } = route.headers;
      requests.push({ ...route, label: `${route.label}: no user`, headers: withoutUser });
    }
  }
  return requests;
}

export function pathRequests(seed: Seeded): Request[] {
  const badIds = [
    'abc',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '99999999999999999999',
    '%F0%9F%98%80',
    '%00',
    '%20',
    '1;DROP%20TABLE%20ctas',
    '999999',
  ];
  return [
    ...badIds.flatMap((id): Request[] => [
      { label: `get CTA ${id}`, method: 'GET', path: `/engine/ctas/${id}`, headers: ADMIN },
      {
        label: `update CTA ${id}`,
        method: 'PUT',
        path: `/engine/ctas/${id}`,
        headers: ADMIN,
        body: (() => {
          const { name: _n, ...body } = ctaBody();
          return body;
        })(),
      },
      { label: `CTA ${id} live`, method: 'PUT', path: `/engine/ctas/${id}/live`, headers: ADMIN },
      { label: `delete test CTA ${id}`, method: 'DELETE', path: `/engine/ctas/test/${id}`, headers: ADMIN },
    ]),
    ...['launch', 'LIVE', 'delete', '%00', 'live%20'].map((action): Request => ({
      label: `CTA action ${action}`,
      method: 'PUT',
      path: `/engine/ctas/${seed.draftCtaId}/${action}`,
      headers: ADMIN,
    })),
    ...['conclude'].map((action): Request => ({
      label: `draft CTA ${action}`,
      method: 'PUT',
      path: `/engine/ctas/${seed.draftCtaId}/${action}`,
      headers: ADMIN,
    })),
    ...[
      'status=bogus',
      'pageNumber=-1',
      'pageNumber=abc',
      'pageNumber=1e3',
      'pageNumber=9999999999999999',
      'pageSize=0',
      'pageSize=101',
      'pageSize=-5',
      'pageSize=1.5',
      'name=a&name=b',
      'status=live&status=paused',
    ].map((query): Request => ({
      label: `list CTAs ?${query.slice(0, 30)}`,
      method: 'GET',
      path: `/engine/ctas?${query}`,
      headers: ADMIN,
    })),
    ...['%ZZ', '%E0%A4%A', 'e'.repeat(300)].flatMap((name): Request[] => [
      { label: `get event ${name.slice(0, 10)}`, method: 'GET', path: `/engine/events/${name}`, headers: ADMIN },
      { label: `delete event ${name.slice(0, 10)}`, method: 'DELETE', path: `/engine/events/${name}`, headers: ADMIN },
    ]),
    { label: 'unknown event', method: 'GET', path: '/engine/events/no-such-event', headers: ADMIN },
    { label: 'delete unknown event', method: 'DELETE', path: '/engine/events/no-such-event', headers: ADMIN },
    { label: 'update unknown event', method: 'PUT', path: '/engine/events/no-such-event', headers: ADMIN, body: { properties: [] } },
    {
      label: 'update unknown tag',
      method: 'PUT',
      path: '/engine/behaviour-tags/no-such-tag',
      headers: ADMIN,
      body: JSON.parse(JSON.stringify({ ...examples.tag, behaviourTagName: undefined, linkedCtas: [] })),
    },
    { label: 'bad percent-encoding in a tag name', method: 'PUT', path: '/engine/behaviour-tags/%ZZ', headers: ADMIN, body: {} },
    { label: 'SDK preview with bad percent-encoding', method: 'GET', path: '/cta/nudge/preview/%E0%A4%A', headers: SDK },
    { label: 'PATCH a CTA', method: 'PATCH', path: `/engine/ctas/${seed.draftCtaId}`, headers: ADMIN, body: {} },
    { label: 'DELETE a CTA', method: 'DELETE', path: `/engine/ctas/${seed.draftCtaId}`, headers: ADMIN },
    { label: 'GET the delta', method: 'GET', path: '/cta/state-machines/snapshot/delta', headers: SDK },
    { label: 'PUT the launch', method: 'PUT', path: '/cta/active/state-machines', headers: SDK, body: {} },
    { label: 'unknown admin route', method: 'GET', path: '/engine/unknown', headers: ADMIN },
    { label: 'unknown SDK route', method: 'POST', path: '/cta/unknown', headers: SDK, body: {} },
    { label: 'path traversal', method: 'GET', path: '/engine/../../etc/passwd', headers: ADMIN },
    { label: 'a 10,000-character path', method: 'GET', path: `/engine/${'p'.repeat(10_000)}`, headers: ADMIN },
  ];
}
