import { Logger } from '@nestjs/common';
import { OUTAGE_LOG_PERIOD_MS, OutageLog } from './outage-log';

describe('OutageLog', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    warn.mockRestore();
  });

  const lines = () => warn.mock.calls.map(([fields]) => fields as Record<string, unknown>);

  it('writes one line per cause at most every period, with the count of refusals since the last line', () => {
    const log = new OutageLog();
    log.refused('ECONNREFUSED', 'connect ECONNREFUSED', 'r1');
    for (let index = 0; index < 99; index++) log.refused('ECONNREFUSED', 'connect ECONNREFUSED');
    log.refused('PROTOCOL_CONNECTION_LOST', 'lost', 'r2');
    expect(lines()).toEqual([
      { cause: 'ECONNREFUSED', refused: 1, detail: 'connect ECONNREFUSED', requestId: 'r1' },
      { cause: 'PROTOCOL_CONNECTION_LOST', refused: 1, detail: 'lost', requestId: 'r2' },
    ]);
    // The 99 refused inside the period are reported once it is over, even when no refusal follows.
    jest.advanceTimersByTime(OUTAGE_LOG_PERIOD_MS);
    expect(lines().slice(2)).toEqual([{ cause: 'ECONNREFUSED', refused: 99, detail: 'connect ECONNREFUSED' }]);
    jest.advanceTimersByTime(10 * OUTAGE_LOG_PERIOD_MS);
    expect(lines()).toHaveLength(3);
    log.refused('ECONNREFUSED', 'again', 'r3');
    expect(lines().slice(3)).toEqual([{ cause: 'ECONNREFUSED', refused: 1, detail: 'again', requestId: 'r3' }]);
  });
});
