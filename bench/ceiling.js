'use strict';
/** The ceiling: a plain Fastify server answering the launch's exact bytes (run as a child process). */
const fastify = require('fastify')();
const body = Buffer.from(process.env.REFERENCE_BODY_B64, 'base64');
fastify.removeAllContentTypeParsers();
fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => done(null, text));
fastify.post('/cta/active/state-machines/', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
