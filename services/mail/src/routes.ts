import { fail, type HandlersOf } from '@app/kit';
import type { MailCatcher } from './catcher.ts';
import { inboxPage } from './inbox.ts';

/**
 * The mail service's operations (contracts: `mailOperations`): the development inbox, which exists only
 * when the service sends to the built-in catcher (`npm start` without SMTP_URL); otherwise 404.
 */
export function mailRoutes(deps: { catcher?: MailCatcher | undefined }): HandlersOf<'mail'> {
  const caught = () => [...(deps.catcher ?? fail('NOT_FOUND')).messages].reverse();
  return {
    devInbox: () => inboxPage(caught()),
    devInboxMessages: () => caught(),
  };
}
