import { bucketOf, checkCohortRule, CohortRule, compileCohortRule, parseVersion, RuleInput } from './cohort-rule';

const input = (client: RuleInput['client'], userId = '1', members: string[] = []): RuleInput => ({
  tenantId: 't1',
  userId,
  client,
  isMember: (name) => members.includes(name),
});

describe('parseVersion', () => {
  it.each([
    ['5.2', '5.2.0'],
    ['5', '5.0.0'],
    ['v5.2.1', '5.2.1'],
    ['5.2.1-beta.2', '5.2.1-beta.2'],
    [' 5.2.1 ', '5.2.1'],
  ])('reads %j as %s', (text, version) => {
    expect(parseVersion(text)?.version).toBe(version);
  });

  it.each(['', 'five', '5.x', '1.2.3.4', 'abc1.2'])('reads %j as no version', (text) => {
    expect(parseVersion(text)).toBeNull();
  });
});

describe('compileCohortRule', () => {
  it.each<[CohortRule, RuleInput['client'], boolean]>([
    [{ all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] }, { appVersion: '5.1.9' }, true],
    [{ all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] }, { appVersion: '5.2' }, false],
    [{ all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] }, { appVersion: '5.2.0-beta.1' }, true],
    [{ all: [{ attribute: 'appVersion', op: 'semverLte', value: '5.2' }] }, { appVersion: '5.2.0' }, true],
    [{ all: [{ attribute: 'appVersion', op: 'semverGt', value: '5.2' }] }, { appVersion: '5.10' }, true],
    [{ all: [{ attribute: 'appVersion', op: 'semverGte', value: '5.2' }] }, { appVersion: 'garbage' }, false],
    [{ all: [{ attribute: 'appVersion', op: 'semverEq', value: '5.2' }] }, { appVersion: 'v5.2.0' }, true],
    [{ all: [{ attribute: 'packageName', op: 'eq', value: 'a' }] }, { packageName: 'a' }, true],
    [{ all: [{ attribute: 'packageName', op: 'neq', value: 'a' }] }, {}, false],
    [{ all: [{ attribute: 'packageName', op: 'notIn', values: ['a'] }] }, { packageName: 'b' }, true],
    [{ all: [{ attribute: 'hotpatchVersion', op: 'in', values: ['v1', 'v2'] }] }, { hotpatchVersion: 'v2' }, true],
    [
      {
        any: [
          { attribute: 'packageName', op: 'eq', value: 'a' },
          { attribute: 'packageName', op: 'eq', value: 'b' },
        ],
      },
      { packageName: 'b' },
      true,
    ],
    [
      { all: [{ attribute: 'packageName', op: 'eq', value: 'a' }, { any: [{ attribute: 'appVersion', op: 'semverLt', value: '2' }] }] },
      { packageName: 'a', appVersion: '3' },
      false,
    ],
  ])('%j holds for %j: %s', (rule, client, expected) => {
    expect(compileCohortRule(rule, 'c')(input(client))).toBe(expected);
  });

  it('buckets by the first 4 bytes of SHA-256(tenant NUL salt NUL user), big-endian, mod 100', () => {
    // Pinned: the same users stay in a bucket across versions and instances.
    expect(bucketOf('t1', 'c', '1')).toBe(15);
    expect(bucketOf('bench-cohorts', 'half', '1000000007')).toBe(45);
    expect(bucketOf('tenant-a', 'example-10pct', '-9223372036854775808')).toBe(26);
  });

  it('reads static membership and buckets by tenant, salt (default the cohort name) and user', () => {
    expect(compileCohortRule({ all: [{ cohort: 'staff' }] }, 'c')(input({}, '1', ['staff']))).toBe(true);
    expect(compileCohortRule({ all: [{ cohort: 'staff' }] }, 'c')(input({}, '1', []))).toBe(false);
    const everyone = compileCohortRule({ all: [{ bucket: { from: 0, to: 100 } }] }, 'c');
    const nobody = compileCohortRule({ all: [{ bucket: { from: 0, to: 1 } }] }, 'c');
    expect(everyone(input({}))).toBe(true);
    const bucket = bucketOf('t1', 'c', '1');
    expect(nobody(input({}))).toBe(bucket === 0);
    expect(compileCohortRule({ all: [{ bucket: { from: bucket, to: bucket + 1 } }] }, 'c')(input({}))).toBe(true);
    expect(compileCohortRule({ all: [{ bucket: { from: bucket, to: bucket + 1, salt: 'c' } }] }, 'other')(input({}))).toBe(true);
  });
});

describe('checkCohortRule', () => {
  it('accepts the grammar and lists the static cohorts it names', () => {
    expect(checkCohortRule({ all: [{ cohort: 'staff' }, { any: [{ bucket: { from: 0, to: 10, salt: 's' } }] }] })).toEqual({
      problems: [],
      cohortNames: [{ path: 'rule.all[0].cohort', name: 'staff' }],
    });
  });

  it('names unknown keys and caps the problems at 20', () => {
    expect(checkCohortRule({ all: [{ attribute: 'appVersion', op: 'eq', value: '1', extra: true }] }).problems).toEqual([
      'rule.all[0].extra: is not a key of this condition (allowed: attribute, op, value)',
    ]);
    const many = { all: Array.from({ length: 30 }, () => ({ attribute: 'x', op: 'eq', value: '1' })) };
    expect(checkCohortRule(many).problems).toHaveLength(20);
  });

  it('refuses more than 100 conditions', () => {
    const rule = { any: Array.from({ length: 101 }, () => ({ bucket: { from: 0, to: 1 } })) };
    expect(checkCohortRule(rule).problems).toEqual(['rule.any[100]: a rule has at most 100 conditions']);
  });
});
