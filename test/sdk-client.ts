import type { DataEnvelope } from '../src/common/envelope';
import type { CtaFrequency, CtaRule, Limit } from '../src/rule/rule.types';
import type { NudgePreview } from '../src/nudge-preview/dto/nudge-preview.dto';
import type { LaunchBehaviourTagDto, LaunchCtaDto } from '../src/sdk/dto/launch-response.dto';
import type { SnapshotRequestDto } from '../src/sdk/dto/snapshot-request.dto';
import { type Answer, ApiClient, type Headers, segment } from './api-client';
import { sdkHeaders } from './fixtures';
import type { TestApp } from './harness';

/** A launched CTA's rule: the stored rule without cohortEligibility, plus ctaValidTill and `lifespan` beside `lifeSpan`. */
export type LaunchRule = Omit<CtaRule, 'cohortEligibility' | 'frequency'> & {
  ctaValidTill: number | null;
  frequency: CtaFrequency & { lifespan: Limit };
};

/** The launch answer to a current SDK (api_version ≥ 1: both lists present; older SDKs get nulls, which tests compare whole). */
export interface Launch {
  ctas: (Omit<LaunchCtaDto, 'rule'> & { rule: LaunchRule })[];
  behaviourTags: LaunchBehaviourTagDto[];
}

/** The headers an SDK request may carry (`codepush_version` is the older name of `hotpatch_version`). */
export type SdkHeaders = Headers<
  | 'x-tenant-id'
  | 'auth-userid'
  | 'api_version'
  | 'app_version'
  | 'package_name'
  | 'hotpatch_version'
  | 'codepush_version'
  | 'x-api-key'
  | 'authorization'
  | 'content-type'
>;

/**
 * One app user's device calling the SDK API: the headers of `sdkHeaders` (api_version 1, the app's
 * version, package and hotpatch) plus `headers`, on every request unless a method's `headers` say
 * otherwise (`{ api_version: undefined }` sends none).
 */
export class SdkClient extends ApiClient<keyof SdkHeaders & string> {
  constructor(
    api: TestApp,
    readonly tenantId: string,
    readonly userId: string,
    private readonly options: { prefix?: string; headers?: SdkHeaders } = {},
  ) {
    super(api, options.prefix ?? '/cta');
  }

  headers(): Record<string, string> {
    const headers = { ...sdkHeaders(this.tenantId, this.userId), ...this.options.headers };
    return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  }

  /** The launch: merges `body`'s snapshots, then answers the user's CTAs and tags. */
  launch(body?: SnapshotRequestDto, headers?: SdkHeaders): Answer<DataEnvelope<Launch>> {
    return this.send('POST', '/active/state-machines/', body, headers);
  }

  /** The delta: merges `body`'s snapshots; `data` says whether they were stored. */
  delta(body: SnapshotRequestDto, headers?: SdkHeaders): Answer<DataEnvelope<boolean>> {
    return this.send('POST', '/state-machines/snapshot/delta/', body, headers);
  }

  /** A nudge preview, or `data: null`. */
  preview(id: string, headers?: SdkHeaders): Answer<DataEnvelope<NudgePreview | null>> {
    return this.send('GET', `/nudge/preview/${segment(id)}`, undefined, headers);
  }
}
