import type { AdminReferral, Payout, PayoutDue } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { AdminPage } from '@/features/admin/components/admin-page';
import { referralIdOf } from '@/features/admin/components/referral-lookup';
import { makeCommission, makeMilestone, makeMoney } from './fixtures';
import { installServer, json, makeUser, problem, renderRoute, type Handler } from './utils';

const c1 = makeCommission({ id: '11111111-1111-4111-8111-111111111111', referrerCents: 8_000 });
const c2 = makeCommission({
  id: '22222222-2222-4222-8222-222222222222',
  milestone: 'closedWon',
  referrerCents: 160_050,
});
const due: PayoutDue[] = [
  {
    referrer: c1.referrer,
    currency: 'USD',
    totalCents: 168_050,
    commissions: [c1, c2],
  },
];
const payout: Payout = {
  id: 'p-1',
  reference: 'PAY-7',
  method: 'wise',
  paidOn: '2026-03-20',
  recordedAt: '2026-03-20T10:00:00.000Z',
  recordedBy: 'Ada Admin',
  currency: 'USD',
  totalCents: 8_000,
  referrers: [{ ...c1.referrer, totalCents: 8_000 }],
  commissions: [{ ...c1, state: 'paid' }],
};

const referral7: AdminReferral = {
  id: 7,
  status: 'intro_made',
  createdAt: '2026-03-01T10:00:00.000Z',
  referredName: 'Grace Hopper',
  referredEmail: 'grace@navy.example',
  clientName: 'Navy Labs',
  productName: 'Acme Analytics',
  companyName: 'Acme',
  referrer: { name: 'Rita Referrer', email: 'rita@northwind.example' },
  lead: { vendorId: 'v-acme', vendorName: 'Acme', status: 'accepted', declineReason: null, decidedAt: null },
  money: makeMoney({
    milestones: [
      makeMilestone('qualifiedLead', {
        state: 'confirmed',
        confirmedAt: '2026-03-04T10:00:00.000Z',
        confirmedBy: 'vendor',
      }),
      makeMilestone('closedWon'),
    ],
    commissions: [c1],
    earnedCents: 8_000,
  }),
  ledger: [
    {
      id: 'e1',
      commissionId: c1.id,
      kind: 'earned',
      amountCents: 8_000,
      actor: 'vendor',
      actorName: 'Acme',
      reason: 'Confirmed by Acme',
      at: '2026-03-04T10:00:00.000Z',
    },
  ],
};

function server(extra?: Handler) {
  return installServer({
    user: makeUser({ isAdmin: true }),
    handler: (req) => {
      const answer = extra?.(req);
      if (answer) return answer;
      if (req.method === 'GET' && req.path === '/api/admin/payouts/due') return json(200, due);
      if (req.method === 'GET' && req.path === '/api/admin/payouts') return json(200, [payout]);
      if (req.method === 'GET' && req.path === '/api/admin/referrals/7') return json(200, referral7);
      if (req.method === 'GET' && req.path.startsWith('/api/admin/referrals/')) return problem('REFERRAL_NOT_FOUND');
      if (req.method === 'GET') return json(200, []);
      return undefined;
    },
  });
}

async function openPayouts() {
  const user = userEvent.setup();
  renderRoute(<AdminPage />, { at: paths.admin, user: makeUser({ isAdmin: true }) });
  await user.click(screen.getByRole('tab', { name: 'Payouts' }));
  await screen.findByRole('list', { name: 'Commissions due to Rita Referrer' });
  return user;
}

describe('Admin payouts (issue 10)', () => {
  it('lists what is due per referrer and records a payout of the chosen commissions', async () => {
    const api = server((req) =>
      req.method === 'POST' && req.path === '/api/admin/payouts' ? json(201, payout) : undefined,
    );
    const user = await openPayouts();
    expect(
      screen.getByRole('group', { name: /Rita Referrer \(rita@northwind.example\): \$1,680.50 due/ }),
    ).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Record payout' });
    expect(form).toHaveTextContent('0 commissions chosen, $0.00 in total');
    await user.click(screen.getByRole('checkbox', { name: /\$80.00: Qualified Lead/ }));
    expect(form).toHaveTextContent('1 commission chosen, $80.00 in total');
    await user.type(within(form).getByLabelText('Payment reference'), 'PAY-7');
    await user.selectOptions(within(form).getByLabelText('Method'), 'Wise');
    await user.clear(within(form).getByLabelText('Paid on'));
    await user.type(within(form).getByLabelText('Paid on'), '2026-03-20');
    await user.click(within(form).getByRole('button', { name: 'Record payout' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/admin/payouts')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/admin/payouts')[0]!.body).toEqual({
      reference: 'PAY-7',
      method: 'wise',
      paidOn: '2026-03-20',
      commissionIds: [c1.id],
    });
    expect(await screen.findByText('Payout recorded')).toBeInTheDocument();
    // The lists are read again after the payout.
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/payouts/due').length).toBeGreaterThan(1));
  });

  it('selects all of a referrer, and shows a 409 clearly', async () => {
    const api = server((req) =>
      req.method === 'POST' && req.path === '/api/admin/payouts' ? problem('PAYOUT_CONFLICT') : undefined,
    );
    const user = await openPayouts();
    const form = screen.getByRole('form', { name: 'Record payout' });
    await user.click(within(form).getByRole('button', { name: 'Record payout' }));
    expect(await within(form).findByText('Please enter the payment reference')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Payment reference'), 'PAY-8');
    await user.click(within(form).getByRole('button', { name: 'Record payout' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Please choose the commissions paid');
    // Choosing answers it: the failure goes with the next choice.
    await user.click(screen.getByRole('checkbox', { name: /\$80.00: Qualified Lead/ }));
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /\$80.00: Qualified Lead/ }));
    expect(api.callsTo('POST', '/api/admin/payouts')).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: "All of Rita Referrer's commissions" }));
    expect(form).toHaveTextContent('2 commissions chosen, $1,680.50 in total');
    await user.click(within(form).getByRole('button', { name: 'Record payout' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Some of these commissions are already paid, reversed or unknown. The list is up to date now: choose again.',
    );
    // It is: what is due was read again after the refusal.
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/payouts/due').length).toBeGreaterThanOrEqual(2));
    expect((api.callsTo('POST', '/api/admin/payouts')[0]!.body as { commissionIds: string[] }).commissionIds).toEqual([
      c1.id,
      c2.id,
    ]);
  });

  it('refuses a date paid in the future, and offers today (local) as the date', async () => {
    const api = server();
    const user = await openPayouts();
    const form = screen.getByRole('form', { name: 'Record payout' });
    const paidOn = within(form).getByLabelText<HTMLInputElement>('Paid on');
    const now = new Date();
    const local = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n) => String(n).padStart(2, '0'));
    expect(paidOn.value).toBe(local.join('-'));
    expect(paidOn.max).toBe(local.join('-'));
    await user.click(screen.getByRole('checkbox', { name: /\$80.00: Qualified Lead/ }));
    await user.type(within(form).getByLabelText('Payment reference'), 'PAY-9');
    await user.clear(paidOn);
    await user.type(paidOn, `${now.getFullYear() + 1}-01-01`);
    await user.click(within(form).getByRole('button', { name: 'Record payout' }));
    expect(await within(form).findByText('The date it was paid cannot be in the future')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/admin/payouts')).toHaveLength(0);
  });

  it('starts the date picker at the last chosen commission earned, and shows the server refusing an earlier date', async () => {
    const message = 'The date it was paid cannot be before the commissions were earned (2026-03-04 at the earliest)';
    const api = server((req) =>
      req.method === 'POST' && req.path === '/api/admin/payouts'
        ? problem('PAYOUT_BEFORE_EARNED', message, { field: 'paidOn' })
        : undefined,
    );
    const user = await openPayouts();
    const form = screen.getByRole('form', { name: 'Record payout' });
    const paidOn = within(form).getByLabelText<HTMLInputElement>('Paid on');
    expect(paidOn.min).toBe('');
    await user.click(screen.getByRole('checkbox', { name: /\$80.00: Qualified Lead/ }));
    const earned = new Date(c1.earnedAt);
    const local = [earned.getFullYear(), earned.getMonth() + 1, earned.getDate()].map((n) =>
      String(n).padStart(2, '0'),
    );
    expect(paidOn.min).toBe(local.join('-'));
    await user.type(within(form).getByLabelText('Payment reference'), 'PAY-10');
    await user.clear(paidOn);
    await user.type(paidOn, '2026-01-02');
    await user.click(within(form).getByRole('button', { name: 'Record payout' }));
    // Next to the field it names, not as a form-wide failure.
    expect(await within(form).findByText(message)).toBeInTheDocument();
    expect(paidOn).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/admin/payouts')).toHaveLength(1);
  });

  it('lists recorded payouts with an Export CSV link', async () => {
    server();
    await openPayouts();
    const table = await screen.findByRole('region', { name: 'Recorded payouts' });
    const row = within(table).getByRole('row', { name: /PAY-7/ });
    expect(row).toHaveTextContent('Wise');
    expect(row).toHaveTextContent('$80.00');
    expect(within(row).getByRole('link', { name: 'Export CSV of payout PAY-7' })).toHaveAttribute(
      'href',
      '/api/admin/payouts/p-1/export',
    );
  });

  it('records a milestone for a vendor with a note and the deal value in cents', async () => {
    const api = server((req) =>
      req.method === 'POST' && req.path === '/api/admin/referrals/7/milestones'
        ? problem('REFERRAL_NOT_ROUTED')
        : undefined,
    );
    const user = await openPayouts();
    const form = screen.getByRole('form', { name: 'Record a milestone for a vendor' });
    await user.click(within(form).getByRole('button', { name: 'Record milestone' }));
    expect(await within(form).findByText('Please enter the referral id or its link')).toBeInTheDocument();
    expect(within(form).getByText('Please say why you record this for the vendor')).toBeInTheDocument();
    // A pasted link names the referral; the form shows whose it is before anything is recorded.
    await user.type(within(form).getByLabelText('Referral id or link'), 'https://hub.example/referral/7');
    const found = await within(form).findByRole('region', { name: 'Referral 7' });
    expect(found).toHaveTextContent('Navy Labs (Grace Hopper) · grace@navy.example');
    expect(found).toHaveTextContent('Acme (workspace) · Acme Analytics');
    expect(found).toHaveTextContent('Rita Referrer (rita@northwind.example) on Mar 1, 2026');
    expect(found).toHaveTextContent('Warm Intro');
    expect(within(found).getByRole('listitem', { name: 'Qualified Lead (Warm Intro)' })).toHaveTextContent(
      'Confirmed by the vendor on Mar 4, 2026',
    );
    expect(within(found).getByRole('list', { name: 'Commissions of Referral 7' })).toHaveTextContent('$80.00');
    expect(found).toHaveTextContent('Ledger (1 entry)');
    await user.selectOptions(within(form).getByLabelText('Milestone'), 'Closed-Won');
    await user.type(within(form).getByLabelText(/Deal value/), '48,000.99');
    await user.type(within(form).getByLabelText('Note (required)'), 'Vendor confirmed by phone');
    await user.click(within(form).getByRole('button', { name: 'Record milestone' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('did not reach a vendor on the platform');
    expect(api.callsTo('POST', '/api/admin/referrals/7/milestones')[0]!.body).toEqual({
      milestone: 'closedWon',
      dealValueCents: 4_800_099,
      note: 'Vendor confirmed by phone',
    });
  });

  it('reverses a deal with a reason', async () => {
    const api = server((req) =>
      req.method === 'POST' && req.path === '/api/admin/referrals/9/reverse' ? json(200, {}) : undefined,
    );
    const user = await openPayouts();
    const form = screen.getByRole('form', { name: 'Reverse a deal' });
    await user.type(within(form).getByLabelText('Referral id or link'), '#9');
    expect(await within(form).findByText('There is no referral 9.')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Reason'), 'Refunded');
    await user.click(within(form).getByRole('button', { name: 'Reverse deal' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/admin/referrals/9/reverse')[0]?.body).toEqual({ reason: 'Refunded' }),
    );
  });
});

describe('referralIdOf', () => {
  it('reads the id from what an administrator has at hand, and nothing else', () => {
    expect(
      ['1042', ' #1042 ', 'Referral 1042', 'referral #1042', 'https://hub.example/referral/1042/email-draft?x=1'].map(
        referralIdOf,
      ),
    ).toEqual(['1042', '1042', '1042', '1042', '1042']);
    for (const text of ['', 'abc', '10 42', '-5', '1e3', '1042abc', 'https://hub.example/referrals/', '1234567890123'])
      expect(referralIdOf(text), text).toBeNull();
  });
});
