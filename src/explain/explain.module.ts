import { Module } from '@nestjs/common';
import { BehaviourTagsModule } from '../behaviour-tags/behaviour-tags.module';
import { CtasModule } from '../ctas/ctas.module';
import { SdkModule } from '../sdk/sdk.module';
import { LaunchExplainService } from './launch-explain.service';

/**
 * The launch explanation: `LaunchExplainController` (`GET /app-users/{userId}/launch`) is mounted
 * under the admin prefix. It asks the SDK module for a launch that writes nothing, and reads CTA
 * names, test users and tag links through what their modules export.
 */
@Module({
  imports: [SdkModule, CtasModule, BehaviourTagsModule],
  providers: [LaunchExplainService],
  exports: [LaunchExplainService],
})
export class ExplainModule {}
