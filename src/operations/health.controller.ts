import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Endpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { databaseUnavailable } from '../common/domain-error';
import { LIVE_EXAMPLE, READY_ERRORS, READY_EXAMPLE } from './operations-api-examples';

@ApiTags(API_TAG.operations)
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get()
  @Endpoint({ summary: 'Liveness: the process answers', answers: { raw: { schema: { example: LIVE_EXAMPLE } } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  // Terminus documents a 503 of its own shape; this one answers the error envelope.
  @HealthCheck({ swaggerDocumentation: false })
  @Endpoint({
    summary: 'Readiness: the database answers',
    answers: { raw: { description: 'the database answers', schema: { example: READY_EXAMPLE } } },
    errors: READY_ERRORS,
  })
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.database.pingCheck('database', { timeout: 2000 })]);
    } catch (error) {
      // The database is the only check: its failure answers like any request that needs it.
      throw error instanceof ServiceUnavailableException ? databaseUnavailable() : error;
    }
  }
}
