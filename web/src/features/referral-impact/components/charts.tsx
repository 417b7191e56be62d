import type { ImpactSummary } from '@app/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { formatMoney, formatMonth, funnelPercent } from './format';

/** Quality & Conversion Funnel: horizontal bars as an inline SVG (spec 9's percentages), with a list for AT. */
export function FunnelChart({ funnel }: { funnel: ImpactSummary['conversionFunnel'] }) {
  // Nothing to divide by: no bars of made-up percentages (issue 12).
  if (funnel.teeUps === 0)
    return <p className="text-sm text-muted-foreground">No tee-ups yet: the funnel fills in as you refer.</p>;
  const stages = [
    { label: 'Tee-ups', count: funnel.teeUps, percent: 100 },
    { label: 'Warm Intros', count: funnel.warmIntros, percent: funnelPercent(funnel.warmIntros, funnel.teeUps) },
    { label: 'Demos', count: funnel.demos, percent: funnelPercent(funnel.demos, funnel.teeUps) },
    { label: 'Closed-Won', count: funnel.closedWon, percent: funnelPercent(funnel.closedWon, funnel.teeUps) },
  ];
  return (
    <ul aria-label="Conversion funnel" className="grid gap-3">
      {stages.map((stage) => (
        <li key={stage.label} data-testid={`funnel-${stage.label}`} className="grid gap-1">
          <div className="flex justify-between text-sm">
            <span className="font-medium">{stage.label}</span>
            <span className="text-muted-foreground tabular-nums">
              {stage.count} · {stage.percent}%
            </span>
          </div>
          <svg
            viewBox="0 0 100 6"
            preserveAspectRatio="none"
            className="h-2.5 w-full"
            role="img"
            aria-label={`${stage.label}: ${stage.count}, ${stage.percent}% of tee-ups`}
          >
            <rect x="0" y="0" width="100" height="6" rx="3" className="fill-muted" />
            <rect
              x="0"
              y="0"
              width={Math.min(100, Math.max(0, stage.percent))}
              height="6"
              rx="3"
              className="fill-primary"
            />
          </svg>
        </li>
      ))}
    </ul>
  );
}

const START_W = 640;
const MIN_W = 260;
const H = 220;
const PAD = { top: 16, right: 48, bottom: 28, left: 36 };

/**
 * The chart's drawing width: its box's width (at least 260), so that the SVG is drawn at its real size and the
 * axis text keeps its size at any width, neither shrinking with the picture on a phone (issue 12) nor growing
 * with it on a desktop (a 640-wide drawing scaled up to 850 px had 15 px labels and a 290 px high chart).
 */
function useChartWidth() {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(START_W);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.round(entry?.contentRect.width ?? START_W);
      if (measured > 0) setWidth(Math.max(MIN_W, measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [box, width] as const;
}

/**
 * The 12-month trend: sent and Closed-Won as grouped bars (left axis, counts) and earned as a line (right
 * axis, USD). The SVG has a title and description; the same figures are in a table below it.
 */
export function TrendsChart({ trends }: { trends: ImpactSummary['trends'] }) {
  const titleId = useId();
  const descId = useId();
  const [box, W] = useChartWidth();
  const months = trends.slice(-12);
  const maxCount = Math.max(1, ...months.map((m) => Math.max(m.sent, m.closedWon)));
  const maxEarned = Math.max(1, ...months.map((m) => m.earnedCents));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, months.length);
  const barW = Math.max(2, slot / 3);
  // Every month's label when there is room (a label, "Mar 2026", is about 56 px wide), else every second or
  // third one, counted from the latest month (the table below has them all).
  const labelEvery = Math.max(1, Math.ceil(56 / slot));
  const y = (count: number) => PAD.top + innerH - (count / maxCount) * innerH;
  const yEarned = (value: number) => PAD.top + innerH - (value / maxEarned) * innerH;
  const line = months.map((m, i) => `${PAD.left + slot * i + slot / 2},${yEarned(m.earnedCents)}`).join(' ');
  const totalSent = months.reduce((sum, m) => sum + m.sent, 0);
  const totalWon = months.reduce((sum, m) => sum + m.closedWon, 0);
  const totalEarned = months.reduce((sum, m) => sum + m.earnedCents, 0);
  // Axis labels only where they differ (a count of 1 has no half; $0 needs no thirds).
  const countTicks = [0, 0.5, 1].filter((f) => Number.isInteger(maxCount * f));
  const earnedTicks = totalEarned > 0 ? [0, 0.5, 1] : [0];

  // Issue 12: no chart of zeros; the empty state says what will be here.
  if (totalSent === 0 && totalWon === 0 && totalEarned === 0)
    return (
      <p className="text-sm text-muted-foreground">
        No referrals in the last 12 months yet: your monthly referrals, Closed-Won deals and earnings will show here.
      </p>
    );

  return (
    <div ref={box} className="grid min-w-0 gap-3">
      {months.length === 0 ? (
        <p className="text-sm text-muted-foreground">No activity in this period</p>
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-labelledby={`${titleId} ${descId}`}>
          <title id={titleId}>Referral trends by month</title>
          <desc
            id={descId}
          >{`${months.length} months: ${totalSent} sent, ${totalWon} Closed-Won, ${formatMoney(totalEarned)} earned. The table below lists each month.`}</desc>
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line
                x1={PAD.left}
                x2={W - PAD.right}
                y1={PAD.top + innerH * (1 - f)}
                y2={PAD.top + innerH * (1 - f)}
                className="stroke-border"
                strokeWidth="1"
              />
              {countTicks.includes(f) ? (
                <text
                  x={PAD.left - 6}
                  y={PAD.top + innerH * (1 - f) + 4}
                  textAnchor="end"
                  className="fill-muted-foreground text-[11px]"
                >
                  {maxCount * f}
                </text>
              ) : null}
              {earnedTicks.includes(f) ? (
                <text
                  x={W - PAD.right + 6}
                  y={PAD.top + innerH * (1 - f) + 4}
                  className="fill-muted-foreground text-[11px]"
                >
                  {axisMoney(maxEarned * f)}
                </text>
              ) : null}
            </g>
          ))}
          {months.map((m, i) => {
            const x = PAD.left + slot * i + slot / 2;
            return (
              <g key={m.month}>
                <rect
                  x={x - barW}
                  y={y(m.sent)}
                  width={barW}
                  height={PAD.top + innerH - y(m.sent)}
                  className="fill-primary/40"
                />
                <rect
                  x={x}
                  y={y(m.closedWon)}
                  width={barW}
                  height={PAD.top + innerH - y(m.closedWon)}
                  className="fill-primary"
                />
                {(months.length - 1 - i) % labelEvery === 0 ? (
                  <text x={x} y={H - 8} textAnchor="middle" className="fill-muted-foreground text-[11px]">
                    {formatMonth(m.month)}
                  </text>
                ) : null}
              </g>
            );
          })}
          <polyline points={line} fill="none" className="stroke-emerald-600" strokeWidth="2" />
          {months.map((m, i) => (
            <circle
              key={m.month}
              cx={PAD.left + slot * i + slot / 2}
              cy={yEarned(m.earnedCents)}
              r="3"
              className="fill-emerald-600"
            />
          ))}
        </svg>
      )}
      <ul className="flex flex-wrap gap-4 text-xs text-muted-foreground" aria-label="Legend">
        <li className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm bg-primary/40" aria-hidden="true" /> Sent
        </li>
        <li className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm bg-primary" aria-hidden="true" /> Closed-Won
        </li>
        <li className="flex items-center gap-1.5">
          <span className="h-0.5 w-3 bg-emerald-600" aria-hidden="true" /> Earned (right axis)
        </li>
      </ul>
      <details className="text-sm">
        <summary className="cursor-pointer text-primary">View trends as a table</summary>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left">
            <caption className="sr-only">Referral trends by month</caption>
            <thead>
              <tr className="border-b border-border">
                <th scope="col" className="py-1 pr-3">
                  Month
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Sent
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Closed-Won
                </th>
                <th scope="col" className="py-1 text-right">
                  Earned
                </th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr key={m.month} className="border-b border-border/50">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {formatMonth(m.month)}
                  </th>
                  <td className="py-1 pr-3 text-right tabular-nums">{m.sent}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{m.closedWon}</td>
                  <td className="py-1 text-right tabular-nums">{formatMoney(m.earnedCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

/** An axis amount: '$0', '$250', '$1.5k', '$12k' (never '$0k' for a few dollars). */
export function axisMoney(cents: number): string {
  const dollars = cents / 100;
  if (dollars < 1000) return `$${Math.round(dollars)}`;
  const k = dollars / 1000;
  return `$${k < 10 ? Math.round(k * 10) / 10 : Math.round(k)}k`;
}
