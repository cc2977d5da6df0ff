import { BehaviourTagCtaEntity } from '../behaviour-tags/behaviour-tag-cta.entity';
import { BehaviourTagEntity } from '../behaviour-tags/behaviour-tag.entity';
import { CatalogueRevisionEntity } from '../catalogue/catalogue-revision.entity';
import { CtaTagEntity } from '../ctas/cta-tag.entity';
import { CtaTestUserEntity } from '../ctas/cta-test-user.entity';
import { CtaEntity } from '../ctas/cta.entity';
import { UserStateEntity } from '../sdk/user-state.entity';
import { CreateCtas1767225600000 } from './migrations/1767225600000-CreateCtas';
import { CreateBehaviourTags1767225600001 } from './migrations/1767225600001-CreateBehaviourTags';
import { CreateCatalogueRevisions1767225600002 } from './migrations/1767225600002-CreateCatalogueRevisions';
import { CreateSdkUserStates1767225600600 } from './migrations/1767225600600-CreateSdkUserStates';

/** Every entity of the service; a host registers them on its own connection. */
export const ORCHESTRATION_ENTITIES = [
  CtaEntity,
  CtaTagEntity,
  CtaTestUserEntity,
  BehaviourTagEntity,
  BehaviourTagCtaEntity,
  CatalogueRevisionEntity,
  UserStateEntity,
];

/** Every migration, in order; a host runs them with its own. */
export const ORCHESTRATION_MIGRATIONS = [
  CreateCtas1767225600000,
  CreateBehaviourTags1767225600001,
  CreateCatalogueRevisions1767225600002,
  CreateSdkUserStates1767225600600,
];
