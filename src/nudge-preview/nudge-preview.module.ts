import { Module } from '@nestjs/common';
import { NudgePreviewService } from './nudge-preview.service';

/** Nudge previews; `NudgePreviewAdminController` is mounted under the admin prefix, `NudgePreviewSdkController` under the SDK prefix. */
@Module({
  providers: [NudgePreviewService],
  exports: [NudgePreviewService],
})
export class NudgePreviewModule {}
