import { operations } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { currentUserQueryKey } from '@/lib/session';

describe('the session read of the entry chunk', () => {
  it('reads the path of the contract’s getUser operation (written out: the entry loads no contract)', () => {
    expect(currentUserQueryKey[0]).toBe(operations.getUser.path);
    expect(operations.getUser.method).toBe('GET');
  });
});
