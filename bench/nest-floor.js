'use strict';
/**
 * The framework floor: a bare Nest + Fastify app whose one route answers the
 * launch's exact bytes, with none of the service's work, hooks or headers (run
 * as a child process), routed like the service. What the launch costs beyond it
 * is the service's own.
 */
require('reflect-metadata');
const { Controller, Header, HttpCode, Module, Post } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { ORCHESTRATION_FASTIFY_OPTIONS } = require('../dist/src/http/fastify-options');

const body = Buffer.from(process.env.REFERENCE_BODY_B64, 'base64');

// Plain JavaScript: the decorators are applied by hand.
class LaunchController {
  launch() {
    return body;
  }
}
const launch = Object.getOwnPropertyDescriptor(LaunchController.prototype, 'launch');
Post('cta/active/state-machines')(LaunchController.prototype, 'launch', launch);
HttpCode(200)(LaunchController.prototype, 'launch', launch);
Header('content-type', 'application/json; charset=utf-8')(LaunchController.prototype, 'launch', launch);
Controller()(LaunchController);

class FloorModule {}
Module({ controllers: [LaunchController] })(FloorModule);

NestFactory.create(FloorModule, new FastifyAdapter(ORCHESTRATION_FASTIFY_OPTIONS), { logger: false })
  .then((app) => app.listen(Number(process.env.PORT), '127.0.0.1'))
  .then(() => process.send?.('ready'));
