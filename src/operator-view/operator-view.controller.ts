import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchNames } from '../http/response-validators';
import { loadViewFiles, type ViewFile } from './operator-view-files';

const VIEW_NOT_BUILT = 'The operator view is not built: run `npm run build` (it runs `vite build` into dist/ui), then restart the service.';

/**
 * The operator's view at `/{admin}/ui/` (docs/operator-view.md): its page and assets, served by the module itself
 * so a host that imports it serves them too, under every admin prefix and alias. No key is needed for these
 * files (the sign-in box is on the page); what the page reads goes through the admin API and its keys.
 * Each answer carries an ETag (304 when `If-None-Match` names it); the page is revalidated on every load, the
 * content-named assets are cached for a year. Compression is the app's (`@fastify/compress`, from 1 KB).
 */
@Controller('ui')
export class OperatorViewController {
  private readonly files = loadViewFiles();

  @Get()
  page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    // Relative asset paths resolve under `ui/` only: `/engine/ui` leads to `/engine/ui/`.
    const [path, query] = request.url.split('?');
    if (!path.endsWith('/')) {
      void reply.redirect(`${path}/${query === undefined ? '' : `?${query}`}`, 302);
      return;
    }
    this.send(request, reply, this.files.get('index.html'));
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.send(request, reply, this.files.get(`assets/${file}`));
  }

  private send(request: FastifyRequest, reply: FastifyReply, file: ViewFile | undefined): void {
    if (file === undefined) {
      const built = this.files.size > 0;
      void reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send(built ? 'No such file of the operator view.' : VIEW_NOT_BUILT);
      return;
    }
    void reply.header('etag', file.etag).header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (ifNoneMatchNames(request.headers['if-none-match'], file.etag)) {
      void reply.code(304).send();
      return;
    }
    void reply.type(file.contentType).send(file.body);
  }
}
