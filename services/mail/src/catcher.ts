import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMessage {
  id: number;
  messageId: string;
  from: string;
  /** Envelope recipients (To, Cc and Bcc alike, as an SMTP server sees them). */
  to: string[];
  cc: string;
  replyTo: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

export interface MailCatcher {
  /** smtp://127.0.0.1:port, for SMTP_URL. */
  url: string;
  messages: CaughtMessage[];
  /** Whether emails to this address are withheld (never kept, never in the inbox). */
  withholds(address: string): boolean;
  /** Resolves with the first message (already caught or arriving) that matches, or rejects after timeoutMs. */
  waitFor(match: (message: CaughtMessage) => boolean, timeoutMs?: number): Promise<CaughtMessage>;
  /** Tests: answer every message with this SMTP error (451: try again later) until called with null. */
  refuse(code: number | null): void;
  /** How many messages were answered with an error. */
  refused(): number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback that keeps what it receives in memory: the default mail transport of
 * `npm start` (read it at /dev/inbox) and the receiving end in tests. A message to one of the `withheld`
 * addresses (lower case) is never kept, so no inbox reader sees it: it goes to `onWithheld` instead.
 */
export async function startMailCatcher(
  options: {
    port?: number;
    keep?: number;
    withheld?: Set<string>;
    onWithheld?: (message: CaughtMessage, addresses: string[]) => void;
  } = {},
): Promise<MailCatcher> {
  const withholds = (address: string) => options.withheld?.has(address.toLowerCase()) ?? false;
  const messages: CaughtMessage[] = [];
  const waiters = new Set<{ match: (m: CaughtMessage) => boolean; resolve: (m: CaughtMessage) => void }>();
  const keep = options.keep ?? 500;
  let nextId = 1;
  let refusing: number | null = null;
  let refusedCount = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      if (refusing !== null) {
        const code = refusing;
        refusedCount++;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Try again later'), { responseCode: code })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const message: CaughtMessage = {
            id: nextId++,
            messageId: parsed.messageId ?? '',
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            cc: (Array.isArray(parsed.cc) ? parsed.cc.map((a) => a.text).join(', ') : parsed.cc?.text) ?? '',
            replyTo: parsed.replyTo?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: new Date().toISOString(),
          };
          const withheld = message.to.filter(withholds);
          if (withheld.length > 0) {
            options.onWithheld?.(message, withheld);
            return callback();
          }
          messages.push(message);
          if (messages.length > keep) messages.shift();
          for (const waiter of waiters) {
            if (waiter.match(message)) {
              waiters.delete(waiter);
              waiter.resolve(message);
            }
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    withholds,
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (message: CaughtMessage) => {
            clearTimeout(timer);
            resolve(message);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching email within ${timeoutMs} ms (caught ${messages.length})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    refuse(code) {
      refusing = code;
    },
    refused: () => refusedCount,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The comma-separated ADMIN_EMAILS as the auth service reads them (trimmed, lower-cased). */
export const adminEmailSet = (list: string | undefined) =>
  new Set(
    (list ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );

/**
 * For the development catcher (`npm start` without SMTP_URL), whose inbox anyone who reaches it can read:
 * emails to an administrator's address (ADMIN_EMAILS) are withheld from it (`withheld`), and their link is
 * printed once on the terminal that started the app (`onWithheld`). Whoever registers an administrator's
 * address first gains nothing: only the person at the terminal can open the link that verifies it.
 */
export function adminMailWithheld(adminEmails: string | undefined, print: (line: string) => void) {
  return {
    withheld: adminEmailSet(adminEmails),
    onWithheld(message: CaughtMessage, addresses: string[]) {
      const link = /https?:\/\/\S*verify-email\S*/.exec(message.text)?.[0];
      for (const address of addresses) {
        print(
          link
            ? `Administrator sign-up for ${address}: open ${link} (not shown in the dev inbox)`
            : `Email to administrator ${address}: "${message.subject.replace(/\p{Cc}/gu, ' ')}" (not shown in the dev inbox)`,
        );
      }
    },
  };
}
