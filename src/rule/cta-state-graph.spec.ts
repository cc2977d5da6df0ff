import { examples } from '../../test/fixtures';
import { stateGraphChange } from './cta-state-graph';

const changed = (change: (rule: Record<string, any>) => void): Record<string, any> => {
  const rule = examples.rule();
  change(rule);
  return rule;
};

describe('stateGraphChange', () => {
  it('is null for a rule that keeps its states and groupBy keys, whatever else changes', () => {
    const edited = changed((rule) => {
      rule.priority = 1;
      rule.actions[0].template = 'banner_v3';
      rule.stateTransition.store_opened['0'][0].filters = null;
      rule.stateTransition.store_opened['0'][0].transitionTo = 1;
      rule.stateTransition.purchase_completed['1'].push({ transitionTo: '3' });
    });
    expect(stateGraphChange(examples.rule(), edited)).toBeNull();
  });

  it('names new and gone states, in order, at the field that names them', () => {
    const edited = changed((rule) => {
      rule.stateTransition.purchase_completed['1'][0].transitionTo = '10';
      rule.stateTransition.purchase_completed['2'][0].transitionTo = '10';
      rule.resetStates = ['10'];
      rule.stateToAction['4'] = 'store_banner';
    });
    expect(stateGraphChange(examples.rule(), edited)).toEqual({
      problems: [
        { path: 'rule.stateTransition', message: 'state "3" would be gone' },
        { path: 'rule.stateToAction', message: 'state "4" is new' },
        { path: 'rule.stateTransition', message: 'state "10" is new' },
      ],
      changes: 'its states',
    });
  });

  it('counts the order of groupBy keys (a machine id joins their values in order), and an absent list as none', () => {
    const swapped = changed((rule) => (rule.groupByConfig.groupByKeys = ['cityId', 'storeId']));
    const before = changed((rule) => (rule.groupByConfig.groupByKeys = ['storeId', 'cityId']));
    expect(stateGraphChange(before, swapped)).toEqual({
      problems: [
        {
          path: 'rule.groupByConfig.groupByKeys',
          message: '["storeId","cityId"] would become ["cityId","storeId"], which re-keys every machine',
        },
      ],
      changes: 'its groupByKeys',
    });
    const none = changed((rule) => delete rule.groupByConfig);
    const empty = changed((rule) => (rule.groupByConfig.groupByKeys = []));
    expect(stateGraphChange(none, empty)).toBeNull();
    expect(stateGraphChange(none, examples.rule())?.changes).toBe('its groupByKeys');
  });

  it('reads rules of any shape (CTAs stored before the grammar) without failing', () => {
    expect(stateGraphChange({ stateTransition: 'x', resetStates: {} }, null)).toBeNull();
    expect(stateGraphChange({ stateTransition: { e: { '0': [null, { transitionTo: 2 }] } } }, {})?.problems).toEqual([
      { path: 'rule.stateTransition', message: 'state "0" would be gone' },
      { path: 'rule.stateTransition', message: 'state "2" would be gone' },
    ]);
  });
});
