import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { parseTenantId } from '../common/request-headers';
import { parseCtaId, unknownCta } from '../common/cta-id';
import { CtaSummaries } from './cta-summaries.reader';

/**
 * The `{ctaId}` of the route names a CTA of the tenant (not a test CTA), else 400 CTA_ID_INVALID — before the
 * body is read: interceptors run ahead of pipes, so `PUT /ctas/999` says the CTA does not exist rather than
 * what its body lacks (docs/operator-view.md, "The console's answers"). The service checks again in its
 * transaction; this is about which answer comes first.
 */
@Injectable()
export class KnownCtaInterceptor implements NestInterceptor {
  constructor(private readonly ctas: CtaSummaries) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<FastifyRequest<{ Params: { ctaId: string } }>>();
    const id = parseCtaId(request.params.ctaId);
    if ((await this.ctas.one(parseTenantId(request.headers), id)) === null) {
      throw unknownCta(id);
    }
    return next.handle();
  }
}
