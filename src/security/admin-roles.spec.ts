import type { ExecutionContext } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ADMIN_CONTROLLERS } from '../cta-orchestration.module';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { ADMIN_ROLES, AdminRole, declaresRole, requiredRoleOf, RequiresRole, roleAllows } from './admin-roles';
import { AdminKeyGuard } from './api-key.guard';

/** Every route handler of a controller: the prototype methods that carry a route method. */
const routesOf = (controller: new (...args: never[]) => unknown): [string, object][] =>
  Object.getOwnPropertyNames(controller.prototype)
    .map((name) => [name, controller.prototype[name]] as [string, object])
    .filter(([, handler]) => typeof handler === 'function' && Reflect.hasMetadata(METHOD_METADATA, handler));

class SampleController {
  @RequiresRole('publisher')
  publish(): void {}

  undeclared(): void {}
}

const contextFor = (handler: object, headers: Record<string, string>): ExecutionContext =>
  ({ getHandler: () => handler, switchToHttp: () => ({ getRequest: () => ({ headers }) }) }) as unknown as ExecutionContext;

describe('admin roles', () => {
  it('declares a role on every admin route', () => {
    const routes = ADMIN_CONTROLLERS.flatMap((controller) =>
      routesOf(controller).map(([name, handler]) => [`${controller.name}.${name}`, handler] as const),
    );
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter(([, handler]) => !declaresRole(handler)).map(([name]) => name)).toEqual([]);
  });

  it('orders the roles: each allows what the ones before it do', () => {
    const allowed = (held: AdminRole) => ADMIN_ROLES.filter((needed) => roleAllows(held, needed));
    expect(allowed('viewer')).toEqual(['viewer']);
    expect(allowed('editor')).toEqual(['viewer', 'editor']);
    expect(allowed('publisher')).toEqual(['viewer', 'editor', 'publisher']);
    expect(allowed('admin')).toEqual([...ADMIN_ROLES]);
  });

  it('reads the declared role, and admin for a route that declares none (closed, not open)', () => {
    expect(requiredRoleOf(SampleController.prototype.publish)).toBe('publisher');
    expect(requiredRoleOf(SampleController.prototype.undeclared)).toBe('admin');
  });

  describe('AdminKeyGuard', () => {
    const guard = new AdminKeyGuard([
      { name: 'ed', role: 'editor', key: 'editor-key' },
      { name: 'pub', role: 'publisher', key: 'publisher-key' },
    ]);

    it('lets a key whose role allows the route through', () => {
      expect(guard.canActivate(contextFor(SampleController.prototype.publish, { 'x-api-key': 'publisher-key' }))).toBe(true);
    });

    it('refuses a key without the role with FORBIDDEN naming the key, its role and the role needed', () => {
      const attempt = () => guard.canActivate(contextFor(SampleController.prototype.publish, { authorization: 'Bearer editor-key' }));
      expect(attempt).toThrow(new DomainError(ErrorCode.FORBIDDEN, "the key 'ed' has the role editor; this route needs publisher"));
    });

    it('refuses an unknown key with UNAUTHORIZED before looking at roles', () => {
      const attempt = () => guard.canActivate(contextFor(SampleController.prototype.publish, { 'x-api-key': 'nope' }));
      expect(attempt).toThrow(expect.objectContaining({ code: ErrorCode.UNAUTHORIZED }));
    });
  });
});
