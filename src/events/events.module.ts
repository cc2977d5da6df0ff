import { Module } from '@nestjs/common';
import { EventsService } from './events.service';

/** Event definitions; `EventsController` is mounted under the admin prefix. */
@Module({
  providers: [EventsService],
  exports: [EventsService],
})
export class EventsModule {}
