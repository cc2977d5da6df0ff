import { Module } from '@nestjs/common';
import { CtasModule } from '../ctas/ctas.module';
import { SimulateService } from './simulate.service';

/**
 * The journey simulator: `SimulateController` (`POST /ctas/simulate`) is mounted under the admin
 * prefix. Reads CTAs and checks CTA bodies through what the CTA module exports; writes nothing.
 */
@Module({
  imports: [CtasModule],
  providers: [SimulateService],
  exports: [SimulateService],
})
export class SimulateModule {}
