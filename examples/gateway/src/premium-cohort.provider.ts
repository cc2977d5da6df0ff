import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ALL_USERS_COHORT, CohortClient, CohortProvider } from 'cta-orchestration-service';
import { GATEWAY_CONNECTION } from './gateway-config';
import { PremiumMemberEntity } from './premium-member.entity';

export const PREMIUM_COHORT = 'premium';

/**
 * The gateway's own cohorts: members of its premium table are in `premium`. The launch joins
 * them with the service's (`all`, static and rule cohorts); `client` carries the app's
 * version and package, should a host's cohorts depend on them.
 */
@Injectable()
export class PremiumCohortProvider implements CohortProvider {
  constructor(@InjectRepository(PremiumMemberEntity, GATEWAY_CONNECTION) private readonly members: Repository<PremiumMemberEntity>) {}

  async cohortsOf(tenantId: string, userId: string, _client: CohortClient): Promise<string[]> {
    const premium = await this.members.existsBy({ tenantId, userId });
    return premium ? [ALL_USERS_COHORT, PREMIUM_COHORT] : [ALL_USERS_COHORT];
  }
}
