import type { MatchResponse, ProgramMatch } from '@app/contracts';
import { ChevronRight, ExternalLink, SearchX, Send } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

const EXCERPT = 240;

export const excerpt = (text: string, max = EXCERPT) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

export const sharePercent = (share: number) => `${Math.round(share * 100)}%`;

/** The ranked programs (best fit first), the ones left out, or the empty state. */
export function MatchResults({
  response,
  onRefer,
}: {
  response: MatchResponse;
  onRefer: (match: ProgramMatch) => void;
}) {
  const matches = [...response.matches].sort((a, b) => b.fit - a.fit);
  // Each new answer takes the focus, which brings it into view: on a phone it arrives below the form, off screen.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [response]);
  return (
    <div className="grid gap-4">
      <div className="flex items-center justify-between gap-2">
        <h2 ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
          Best matches
        </h2>
        <span className="text-xs text-muted-foreground">
          {response.rankedBy === 'llm' ? 'Ranked by AI' : 'Ranked by keyword and profile fit'}
        </span>
      </div>

      {matches.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 p-8 text-center">
            <SearchX className="size-10 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">No matching programs</p>
            <p className="text-sm text-muted-foreground">
              Try describing the need in other words, or leave out details you are unsure of.
            </p>
          </CardContent>
        </Card>
      ) : (
        <ol className="grid gap-4" aria-label="Matching programs">
          {matches.map((match, index) => (
            <li key={match.programId}>
              <MatchCard match={match} rank={index + 1} onRefer={() => onRefer(match)} />
            </li>
          ))}
        </ol>
      )}

      {response.excluded.length > 0 ? (
        <details className="rounded-lg border border-border p-4">
          <summary className="flex cursor-pointer items-center gap-1 text-sm font-medium">
            <ChevronRight className="size-4" aria-hidden="true" /> Excluded ({response.excluded.length})
          </summary>
          <ul className="mt-3 grid gap-3 text-sm">
            {response.excluded.map((item) => (
              <li key={item.programId}>
                <p className="font-medium">{item.programName}</p>
                <ul className="list-disc pl-5 text-muted-foreground">
                  {item.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function MatchCard({ match, rank, onRefer }: { match: ProgramMatch; rank: number; onRefer: () => void }) {
  const titleId = `match-${match.programId}-title`;
  return (
    <Card aria-labelledby={titleId} role="article">
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1">
            <CardTitle id={titleId} className="wrap-anywhere">
              <span className="sr-only">{`#${rank} `}</span>
              {match.programName}
            </CardTitle>
            {match.companyName ? <p className="text-sm text-muted-foreground">by {match.companyName}</p> : null}
          </div>
          <Badge variant="secondary">{match.fit}% fit</Badge>
        </div>
        <div
          role="meter"
          aria-label="Fit"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={match.fit}
          aria-valuetext={`${match.fit}%`}
          className="h-2 w-full overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-primary" style={{ width: `${match.fit}%` }} />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {match.description ? <p className="text-sm">{excerpt(match.description)}</p> : null}
        {match.reasons.length > 0 ? (
          <div>
            <h4 className="text-sm font-semibold">Why it fits</h4>
            <ul className="mt-1 list-disc pl-5 text-sm text-muted-foreground">
              {match.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="rounded-lg bg-muted p-3 text-sm">
          <h4 className="font-semibold">Reward</h4>
          {match.reward.bounties.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {match.reward.bounties.map((b) => (
                <li key={b.milestone}>{b.text}</li>
              ))}
            </ul>
          ) : null}
          {match.reward.rewardDetails ? (
            <p className="mt-1 text-foreground/80">{excerpt(match.reward.rewardDetails)}</p>
          ) : null}
          <p className="mt-2 font-medium">You keep {sharePercent(match.reward.referrerShare)}</p>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          {match.website ? (
            <a
              href={match.website}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-w-0 items-center gap-1 text-sm break-all text-primary hover:underline"
            >
              {match.website} <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          ) : (
            <span />
          )}
          {/* A long program name wraps on a phone instead of widening the card (issue 12). */}
          <Button onClick={onRefer} className="h-auto min-h-10 w-full whitespace-normal sm:w-auto">
            <Send aria-hidden="true" /> Refer to {match.programName}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
