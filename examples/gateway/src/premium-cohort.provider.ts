import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ALL_USERS_COHORT, CohortProvider } from 'cta-orchestration-service';
import { GATEWAY_CONNECTION } from './gateway-config';
import { PremiumMemberEntity } from './premium-member.entity';

export const PREMIUM_COHORT = 'premium';

/** The gateway's cohorts: every user is in `all`; members of its premium table are in `premium` too. */
@Injectable()
export class PremiumCohortProvider implements CohortProvider {
  constructor(@InjectRepository(PremiumMemberEntity, GATEWAY_CONNECTION) private readonly members: Repository<PremiumMemberEntity>) {}

  async cohortsOf(tenantId: string, userId: string): Promise<string[]> {
    const premium = await this.members.existsBy({ tenantId, userId });
    return premium ? [ALL_USERS_COHORT, PREMIUM_COHORT] : [ALL_USERS_COHORT];
  }
}
