import type { OrchestrationSettings } from '../orchestration-options';
import type { CtaTimeBounds } from './cta-body-check';

/** The window a CTA's times must lie in at `now`, from the module's settings (CTA_TIME_TOLERANCE_MS, CTA_TIME_HORIZON_DAYS). */
export const ctaTimeBounds = (
  settings: Pick<OrchestrationSettings, 'ctaTimeToleranceMs' | 'ctaTimeHorizonDays'>,
  now: number,
  { pastAllowed = false } = {},
): CtaTimeBounds => ({ now, toleranceMs: settings.ctaTimeToleranceMs, horizonDays: settings.ctaTimeHorizonDays, pastAllowed });
