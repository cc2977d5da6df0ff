import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { ChangeOrigin } from '../audit/change-origin';
import { OPTIONAL_USER_HEADER } from '../common/api-headers';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { APP_USER_ERRORS, APP_USER_EXAMPLE, APP_USER_ID_PARAM, ERASED_EXAMPLE } from './app-user-api-examples';
import { AppUserData, AppUsersService, ErasedCounts } from './app-users.service';
import { AppUserDataDto, ErasedCountsDto } from './dto/app-user-data.dto';

/**
 * An app user's data (docs/decisions/0017-user-data-export-and-erase.md): what is stored about them,
 * and erasing it. Role `admin` for both: a state machine's context may hold personal values.
 */
@ApiTags(API_TAG.appUsers)
@Controller('app-users')
export class AppUsersController {
  constructor(private readonly appUsers: AppUsersService) {}

  @Get(':userId')
  @AdminEndpoint({
    summary: 'Everything stored about an app user (GDPR art. 15)',
    description:
      "The user's SDK state as stored, in the launch's shape (machines with their contexts, resetAt, actionDoneAt; tag lists; " +
      'the recent actions the exposure policy counts), ' +
      'including what the next launch would prune; the static cohorts listing them; the test CTAs listing them; the audit entries ' +
      'naming them (test CTA userIds). A user with nothing stored gets empty lists, not an error.',
    role: 'admin',
    params: [APP_USER_ID_PARAM],
    answers: { data: AppUserDataDto, description: "the user's data", example: APP_USER_EXAMPLE },
    errors: APP_USER_ERRORS,
  })
  async export(@TenantId() tenantId: string, @Param('userId') userId: string): Promise<DataEnvelope<AppUserData>> {
    return dataEnvelope(await this.appUsers.export(tenantId, userId));
  }

  @Delete(':userId')
  @AdminEndpoint({
    summary: "Erase an app user's data (GDPR art. 17)",
    description:
      'In one transaction: empties their stored state, removes them from static cohorts (member counts follow) and from test CTA ' +
      'lists (a test CTA left with nobody is deleted), and replaces their id with "erased" in audit entries. Final: a launch or ' +
      'delta that read the state before the erase and writes after it does not bring it back, on any instance; what a device ' +
      'sends afterwards is stored as new data. One audit entry records it: entityType appUser, entityId the hex SHA-256 of ' +
      '`tenant:userId`, action erase, the counts in after. Erasing again answers zeros.',
    role: 'admin',
    params: [APP_USER_ID_PARAM],
    headers: [OPTIONAL_USER_HEADER],
    answers: { data: ErasedCountsDto, description: 'what was erased', example: ERASED_EXAMPLE },
    errors: APP_USER_ERRORS,
  })
  async erase(
    @TenantId() tenantId: string,
    @Param('userId') userId: string,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<ErasedCounts>> {
    return dataEnvelope(await this.appUsers.erase(tenantId, userId, origin));
  }
}
