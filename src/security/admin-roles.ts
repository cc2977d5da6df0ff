import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse } from '@nestjs/swagger';
import { errorExamples } from '../common/api-error-responses';
import { ErrorEnvelopeDto } from '../common/envelope';
import { ErrorCode } from '../common/error-code';

/** Operator roles (docs/decisions/0010-roles-keys-and-tokens.md), each allowed what the ones before it are. */
export const ADMIN_ROLES = ['viewer', 'editor', 'publisher', 'admin'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export const isAdminRole = (value: string): value is AdminRole => (ADMIN_ROLES as readonly string[]).includes(value);

/** Whether a key of role `held` may call a route that needs `needed`. */
export const roleAllows = (held: AdminRole, needed: AdminRole): boolean => ADMIN_ROLES.indexOf(held) >= ADMIN_ROLES.indexOf(needed);

const REQUIRED_ROLE = 'cta-orchestration:required-role';

/**
 * The role an admin route needs, declared on the route: `viewer` reads, `editor` writes,
 * `publisher` changes statuses and restores. Read by the service's key guard, and by a host's
 * own guard through `requiredRoleOf`.
 */
export function RequiresRole(role: AdminRole): MethodDecorator {
  const below = ADMIN_ROLES[ADMIN_ROLES.indexOf(role) - 1];
  // Every key may read: only routes above `viewer` can answer 403.
  return below === undefined
    ? SetMetadata(REQUIRED_ROLE, role)
    : applyDecorators(
        SetMetadata(REQUIRED_ROLE, role),
        ApiForbiddenResponse({
          type: ErrorEnvelopeDto,
          description: `FORBIDDEN: ADMIN_API_KEYS is set and the key's role is below ${role}, the role this route needs (the message names the key, its role and ${role})`,
          examples: errorExamples([[ErrorCode.FORBIDDEN, `the key 'alice' has the role ${below}; this route needs ${role}`]]),
        }),
      );
}

/**
 * The role a route handler (`context.getHandler()`) needs. A route that declares none needs
 * `admin`, so a route added without a declaration is closed rather than open.
 */
export function requiredRoleOf(handler: object): AdminRole {
  return (Reflect.getMetadata(REQUIRED_ROLE, handler) as AdminRole | undefined) ?? 'admin';
}

/** Whether the handler declares its role (checked for every admin route by a unit test). */
export const declaresRole = (handler: object): boolean => Reflect.hasMetadata(REQUIRED_ROLE, handler);
