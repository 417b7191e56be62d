/**
 * A static picture of the dashboard (spec 2). It is an illustration: one labelled figure whose inner markup is
 * hidden from assistive technology and holds nothing focusable.
 */
const ROWS = [
  { client: 'Acme Health', partner: 'CloudCare CRM', status: 'Active', revenue: '$2,400' },
  { client: 'Bluebird Retail', partner: 'ShopFlow', status: 'Pending', revenue: '$1,150' },
  { client: 'Orbit Logistics', partner: 'RouteIQ', status: 'Active', revenue: '$3,800' },
  { client: 'Pine & Co', partner: 'LedgerLine', status: 'Pending', revenue: '$900' },
];

const STATS = [
  { label: 'Active referrals', value: '24' },
  { label: 'Conversion rate', value: '38%' },
  { label: 'Earned this month', value: '$8,250' },
];

export function DashboardMock() {
  return (
    <figure className="mx-auto max-w-5xl" aria-labelledby="dashboard-mock-caption">
      <figcaption id="dashboard-mock-caption" className="sr-only">
        Illustration of the referral dashboard: active referrals with their partner, status and revenue.
      </figcaption>
      <div
        aria-hidden="true"
        className="overflow-hidden rounded-xl border border-border bg-background text-left shadow-xl"
      >
        <div className="flex items-center gap-1.5 border-b border-border bg-muted px-4 py-2.5">
          <span className="size-2.5 rounded-full bg-red-400" />
          <span className="size-2.5 rounded-full bg-amber-400" />
          <span className="size-2.5 rounded-full bg-green-500" />
        </div>
        <div className="p-4 sm:p-6">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="flex flex-wrap gap-1 rounded-lg bg-muted p-1 text-xs font-medium sm:text-sm">
              <span className="rounded-md bg-background px-3 py-1.5 shadow-sm">Active Referrals</span>
              <span className="px-3 py-1.5 text-gray-600">Past Referrals</span>
              <span className="px-3 py-1.5 text-gray-600">Analytics</span>
              <span className="px-3 py-1.5 text-gray-600">Settings</span>
            </div>
            <span className="rounded-md bg-primary px-3 py-1.5 text-xs font-medium text-primary-foreground sm:text-sm">
              + New Referral
            </span>
          </div>
          <div className="mt-4 grid grid-cols-3 gap-2 sm:gap-4">
            {STATS.map((s) => (
              <div key={s.label} className="rounded-lg border border-border p-2 sm:p-4">
                <p className="text-[11px] text-gray-600 sm:text-xs">{s.label}</p>
                <p className="mt-1 text-base font-semibold sm:text-2xl">{s.value}</p>
              </div>
            ))}
          </div>
          <div className="mt-4 grid gap-4 lg:grid-cols-[2fr_1fr]">
            <div className="overflow-hidden rounded-lg border border-border">
              <table className="w-full text-xs sm:text-sm">
                <thead className="bg-muted text-gray-600">
                  <tr>
                    <th className="px-2 py-2 text-left font-medium sm:px-3">Client</th>
                    <th className="px-2 py-2 text-left font-medium sm:px-3">Partner</th>
                    <th className="px-2 py-2 text-left font-medium sm:px-3">Status</th>
                    <th className="px-2 py-2 text-right font-medium sm:px-3">Revenue</th>
                  </tr>
                </thead>
                <tbody>
                  {ROWS.map((r) => (
                    <tr key={r.client} className="border-t border-border">
                      <td className="px-2 py-2 font-medium sm:px-3">{r.client}</td>
                      <td className="px-2 py-2 text-gray-600 sm:px-3">{r.partner}</td>
                      <td className="px-2 py-2 sm:px-3">
                        <span
                          className={
                            r.status === 'Active'
                              ? 'rounded-full bg-green-100 px-2 py-0.5 text-[11px] font-medium text-green-800'
                              : 'rounded-full bg-amber-100 px-2 py-0.5 text-[11px] font-medium text-amber-900'
                          }
                        >
                          {r.status}
                        </span>
                      </td>
                      <td className="px-2 py-2 text-right tabular-nums sm:px-3">{r.revenue}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="hidden rounded-lg border border-border p-3 lg:block">
              <div className="flex gap-1 rounded-md bg-muted p-1 text-xs font-medium">
                <span className="flex-1 rounded bg-background px-2 py-1 text-center shadow-sm">Summary</span>
                <span className="flex-1 px-2 py-1 text-center text-gray-600">Schedule</span>
              </div>
              <ul className="mt-3 space-y-2 text-xs">
                <li className="flex justify-between">
                  <span className="text-gray-600">Sent this week</span>
                  <span className="font-medium">7</span>
                </li>
                <li className="flex justify-between">
                  <span className="text-gray-600">Intros booked</span>
                  <span className="font-medium">4</span>
                </li>
                <li className="flex justify-between">
                  <span className="text-gray-600">Pending payouts</span>
                  <span className="font-medium">$3,050</span>
                </li>
                <li className="flex justify-between">
                  <span className="text-gray-600">Next follow-up</span>
                  <span className="font-medium">Tue 10:00</span>
                </li>
              </ul>
            </div>
          </div>
        </div>
      </div>
    </figure>
  );
}
