import { describe, expect, it } from 'vitest';
import { conditionText, parseScalar, toCondition, toConditions } from './conditions';

describe('parseScalar', () => {
  it('keeps the JSON type a person means: numbers, booleans, quoted text as text', () => {
    expect(parseScalar(' 40 ')).toBe(40);
    expect(parseScalar('-1.5')).toBe(-1.5);
    expect(parseScalar('true')).toBe(true);
    expect(parseScalar('"40"')).toBe('40');
    expect(parseScalar('BR')).toBe('BR');
  });
});

describe('toCondition', () => {
  it('builds each operator’s value as the API takes it', () => {
    expect(toCondition({ field: 'country', op: 'eq', value: 'BR' })).toEqual({
      condition: { field: 'country', op: 'eq', value: 'BR' },
    });
    expect(toCondition({ field: 'payload.level', op: 'gte', value: '5' })).toEqual({
      condition: { field: 'payload.level', op: 'gte', value: 5 },
    });
    expect(toCondition({ field: 'country', op: 'in', value: 'BR, US ,,PT' })).toEqual({
      condition: { field: 'country', op: 'in', value: ['BR', 'US', 'PT'] },
    });
    expect(toCondition({ field: 'payload.vip', op: 'exists', value: 'ignored' })).toEqual({
      condition: { field: 'payload.vip', op: 'exists' },
    });
    expect(toCondition({ field: 'payload.tags', op: 'contains', value: '7' })).toEqual({
      condition: { field: 'payload.tags', op: 'contains', value: '7' },
    });
  });

  it('refuses a field outside platform, country, game_id and payload.<key>, and a non-number comparison', () => {
    expect(toCondition({ field: 'player_id', op: 'eq', value: 'x' })).toHaveProperty('error');
    expect(toCondition({ field: 'payload.', op: 'eq', value: 'x' })).toHaveProperty('error');
    expect(toCondition({ field: 'payload.level', op: 'gt', value: 'five' })).toEqual({
      error: 'This comparison needs a number.',
    });
    expect(toCondition({ field: 'country', op: 'eq', value: ' ' })).toEqual({ error: 'Give a value.' });
  });

  it('names the first bad condition by its position', () => {
    expect(
      toConditions([
        { field: 'country', op: 'eq', value: 'BR' },
        { field: 'payload.level', op: 'lt', value: '' },
      ]),
    ).toEqual({ error: 'Condition 2: This comparison needs a number.' });
  });
});

describe('conditionText', () => {
  it('reads like a sentence, quoting text and listing sets', () => {
    expect(conditionText({ field: 'country', op: 'in', value: ['BR', 'US'] })).toBe(
      'country is one of “BR”, “US”',
    );
    expect(conditionText({ field: 'payload.level', op: 'gte', value: 5 })).toBe('payload.level ≥ 5');
    expect(conditionText({ field: 'payload.vip', op: 'exists' })).toBe('payload.vip exists');
  });
});
