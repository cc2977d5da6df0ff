import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { errorExamples, SERVICE_UNAVAILABLE_EXAMPLE } from '../common/api-error-responses';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { databaseUnavailable } from '../common/domain-error';
import { ErrorEnvelopeDto } from '../common/envelope';

@ApiTags(API_TAG.operations)
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  // Terminus documents a 503 of its own shape; this one answers the error envelope.
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({
    description: 'the database answers',
    schema: { example: { status: 'ok', info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } } },
  })
  @ApiServiceUnavailableResponse({
    type: ErrorEnvelopeDto,
    description: 'SERVICE_UNAVAILABLE: the database does not answer',
    examples: errorExamples([SERVICE_UNAVAILABLE_EXAMPLE]),
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
