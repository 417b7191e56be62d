import { describe, expect, it } from 'vitest';
import { natsConnectOptions } from '../src/events/nats.ts';

describe('natsConnectOptions', () => {
  it('takes the credentials out of the URL, decoded, and gives the user its own inbox prefix', () => {
    expect(natsConnectOptions('nats://mail:p%40ss%2Fword@nats:4222')).toEqual({
      servers: ['nats://nats:4222'],
      user: 'mail',
      pass: 'p@ss/word',
      inboxPrefix: '_INBOX.mail',
    });
  });

  it('leaves a URL without credentials as it is', () => {
    expect(natsConnectOptions('nats://127.0.0.1:4222')).toEqual({ servers: ['nats://127.0.0.1:4222'] });
  });

  it('reads several servers, the credentials from the first that has them', () => {
    expect(natsConnectOptions('nats://ai:secret@nats-0:4222, nats://nats-1:4222')).toEqual({
      servers: ['nats://nats-0:4222', 'nats://nats-1:4222'],
      user: 'ai',
      pass: 'secret',
      inboxPrefix: '_INBOX.ai',
    });
  });
});
