import type { SVGProps } from 'react';

/**
 * The few lucide icons the landing page draws (ISC licence, lucide.dev), inlined as data so the landing chunk
 * does not carry lucide-react's icon factory. Decorative: always aria-hidden.
 */
type IconNode = readonly (readonly [string, Record<string, string>])[];

function icon(node: IconNode) {
  return function Icon({ className }: { className?: string }) {
    const props: SVGProps<SVGSVGElement> = {
      width: 24,
      height: 24,
      viewBox: '0 0 24 24',
      fill: 'none',
      stroke: 'currentColor',
      strokeWidth: 2,
      strokeLinecap: 'round',
      strokeLinejoin: 'round',
      className,
      'aria-hidden': true,
    };
    return (
      <svg {...props}>
        {node.map(([Tag, attrs], i) => {
          const El = Tag as 'path';
          return <El key={i} {...attrs} />;
        })}
      </svg>
    );
  };
}

export const Menu = icon([
  ['path', { d: 'M4 5h16' }],
  ['path', { d: 'M4 12h16' }],
  ['path', { d: 'M4 19h16' }],
]);
export const X = icon([
  ['path', { d: 'M18 6 6 18' }],
  ['path', { d: 'm6 6 12 12' }],
]);
export const Check = icon([['path', { d: 'M20 6 9 17l-5-5' }]]);
export const Star = icon([
  [
    'path',
    {
      d: 'M11.525 2.295a.53.53 0 0 1 .95 0l2.31 4.679a2.123 2.123 0 0 0 1.595 1.16l5.166.756a.53.53 0 0 1 .294.904l-3.736 3.638a2.123 2.123 0 0 0-.611 1.878l.882 5.14a.53.53 0 0 1-.771.56l-4.618-2.428a2.122 2.122 0 0 0-1.973 0L6.396 21.01a.53.53 0 0 1-.77-.56l.881-5.139a2.122 2.122 0 0 0-.611-1.879L2.16 9.795a.53.53 0 0 1 .294-.906l5.165-.755a2.122 2.122 0 0 0 1.597-1.16z',
    },
  ],
]);
export const Bot = icon([
  ['path', { d: 'M12 8V4H8' }],
  ['rect', { width: '16', height: '12', x: '4', y: '8', rx: '2' }],
  ['path', { d: 'M2 14h2' }],
  ['path', { d: 'M20 14h2' }],
  ['path', { d: 'M15 13v2' }],
  ['path', { d: 'M9 13v2' }],
]);
export const Clock = icon([
  ['circle', { cx: '12', cy: '12', r: '10' }],
  ['path', { d: 'M12 6v6l4 2' }],
]);
export const MessageSquare = icon([
  [
    'path',
    {
      d: 'M22 17a2 2 0 0 1-2 2H6.828a2 2 0 0 0-1.414.586l-2.202 2.202A.71.71 0 0 1 2 21.286V5a2 2 0 0 1 2-2h16a2 2 0 0 1 2 2z',
    },
  ],
]);
export const Handshake = icon([
  ['path', { d: 'm11 17 2 2a1 1 0 1 0 3-3' }],
  [
    'path',
    {
      d: 'm14 14 2.5 2.5a1 1 0 1 0 3-3l-3.88-3.88a3 3 0 0 0-4.24 0l-.88.88a1 1 0 1 1-3-3l2.81-2.81a5.79 5.79 0 0 1 7.06-.87l.47.28a2 2 0 0 0 1.42.25L21 4',
    },
  ],
  ['path', { d: 'm21 3 1 11h-2' }],
  ['path', { d: 'M3 3 2 14l6.5 6.5a1 1 0 1 0 3-3' }],
  ['path', { d: 'M3 4h8' }],
]);
export const Users = icon([
  ['path', { d: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2' }],
  ['path', { d: 'M16 3.128a4 4 0 0 1 0 7.744' }],
  ['path', { d: 'M22 21v-2a4 4 0 0 0-3-3.87' }],
  ['circle', { cx: '9', cy: '7', r: '4' }],
]);
export const LineChart = icon([
  ['path', { d: 'M3 3v16a2 2 0 0 0 2 2h16' }],
  ['path', { d: 'm19 9-5 5-4-4-3 3' }],
]);
