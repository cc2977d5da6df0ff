import type { AdminRole } from '../security/admin-roles';

/** The writes the operator's view offers, each allowed by the role its route declares. */
export interface OperatorMay {
  update: boolean;
  changeStatus: boolean;
  approve: boolean;
  restore: boolean;
  exportUser: boolean;
  eraseUser: boolean;
}

/** `GET /{admin}/whoami`: who the calling key is and what it may change (the view reads it too: plain types only here). */
export interface Whoami {
  /** The tenant the view reads (x-tenant-id, else the default). */
  tenantId: string;
  name: string | null;
  role: AdminRole | null;
  /** Who a write without a `user` header is recorded as (the key's name, else ADMIN_DEFAULT_USER); null: such a write names no one. */
  user: string | null;
  approvalsRequired: boolean;
  may: OperatorMay;
}
