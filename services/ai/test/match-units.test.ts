import { companyKey } from '@app/domain';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../src/match/bm25.ts';
import { bountySummaries } from '../src/match/bounties.ts';
import { seniorityOf } from '@app/domain';

describe('Smart Match building blocks', () => {
  it('normalizes vendors as the referrals service does', () => {
    expect(companyKey('Pipedrive, Inc.')).toBe('pipedrive');
    expect(companyKey('  ACME   Technologies GmbH ')).toBe('acme');
    expect(companyKey('  ')).toBe('');
  });

  it('reads seniority only from roles that clearly state it', () => {
    expect(seniorityOf('VP of Sales')).toBe('VP');
    expect(seniorityOf('CTO')).toBe('C-suite');
    expect(seniorityOf('Sales Intern')).toBe('Intern / Trainee');
    expect(seniorityOf('Product Owner')).toBeNull();
    expect(seniorityOf('Partner Manager')).toBe('Manager');
    expect(seniorityOf('Growth person')).toBeNull();
  });

  it('writes bounty texts, leaving out disabled or unreadable milestones', () => {
    expect(
      bountySummaries({
        qualifiedLead: { enabled: true, type: 'flat', amount: 1500 },
        meetingHeld: { enabled: true, type: 'percentage_mrr', amount: 10, months: 1 },
        opportunityCreated: { enabled: true },
        closedWon: { enabled: true, type: 'percentage_arr', amount: 12.5 },
        retentionBonus: 'nonsense',
      }).map((b) => b.text),
    ).toEqual([
      '$1,500 at Qualified Lead',
      '10% of MRR for 1 month at Meeting Held',
      '12.5% of first-year ARR at Closed-Won',
    ]);
    expect(bountySummaries(null)).toEqual([]);
  });

  it('scores only documents sharing a term, keeps the best k, and forgets removed documents', () => {
    const index = new Bm25Index();
    index.upsert({ id: 'a', fields: [{ text: 'crm pipeline deals', weight: 1 }] });
    index.upsert({ id: 'b', fields: [{ text: 'crm', weight: 1 }] });
    index.upsert({ id: 'c', fields: [{ text: 'payroll benefits', weight: 1 }] });
    const query = new Map([
      ['crm', 1],
      ['pipeline', 1],
    ]);
    expect(index.search(query, 5).map((hit) => [hit.id, hit.matched])).toEqual([
      ['a', ['crm', 'pipeline']],
      ['b', ['crm']],
    ]);
    expect(index.search(query, 1).map((hit) => hit.id)).toEqual(['a']);
    index.remove('a');
    expect(index.search(query, 5).map((hit) => hit.id)).toEqual(['b']);
    index.upsert({ id: 'b', fields: [{ text: 'payroll', weight: 1 }] });
    expect(index.search(query, 5)).toEqual([]);
    expect(index.size).toBe(2);
  });
});
