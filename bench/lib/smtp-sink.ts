/**
 * The pipeline bench's SMTP sink, forked as its own process (so its CPU time is its own): a real SMTP
 * server (`smtp-server`, as the mail catcher) that keeps nothing but, for each message it accepts, its
 * envelope recipients and when it arrived, sent to the parent over IPC every 50 ms.
 */
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  at: number;
}

let batch: Received[] = [];

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    stream.resume();
    stream.on('end', () => {
      batch.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), at: Date.now() });
      callback();
    });
  },
});

const flush = setInterval(() => {
  if (!batch.length) return;
  process.send?.({ type: 'received', messages: batch });
  batch = [];
}, 50);

server.listen(0, '127.0.0.1', () => {
  const address = server.server.address();
  process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
});

process.on('message', (message: { type: string }) => {
  if (message.type !== 'close') return;
  clearInterval(flush);
  if (batch.length) process.send?.({ type: 'received', messages: batch });
  server.close(() => process.exit(0));
});
