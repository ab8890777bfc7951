import type { JsonObject } from '@bufbuild/protobuf';
import {
  ACCOUNT_UPDATED,
  ACCOUNT_UPDATED_TYPE,
  accountUpdatedSubject,
  API_KEY_REVOKED,
  API_KEY_REVOKED_TYPE,
  apiKeyRevokedSubject,
  eventPayload,
} from '@hc/events/contracts';
import type { ApiKeyRecord, MerchantAccount } from './merchant-account.ts';

/** One outbox row: what the store queues in the transaction of the change (docs/adr/0085). */
export interface AccountEvent {
  readonly msgId: string;
  readonly subject: string;
  readonly payload: JsonObject;
}

/**
 * `accounts.account.updated.<id>`: the account as it stands after a create or a change. The message id
 * names the state, so a retried transaction that wrote the same state queues it once.
 */
export function accountUpdatedEvent(account: MerchantAccount, at: Date): AccountEvent {
  const id = `${account.id}.updated.${at.getTime()}.${account.status}.${account.payoutWallet ?? '-'}.${account.feeBps}`;
  return {
    msgId: id,
    subject: accountUpdatedSubject(account.id),
    payload: eventPayload(ACCOUNT_UPDATED, {
      id,
      type: ACCOUNT_UPDATED_TYPE,
      occurredAt: at.getTime(),
      accountId: account.id,
      status: account.status,
      ...(account.payoutWallet === null ? {} : { payoutWallet: account.payoutWallet }),
      feeBps: account.feeBps,
    }),
  };
}

/** `accounts.api_key.revoked.<key id>`: once per key (a second revocation changes nothing). */
export function apiKeyRevokedEvent(key: ApiKeyRecord, at: Date): AccountEvent {
  const id = `${key.id}.revoked`;
  return {
    msgId: id,
    subject: apiKeyRevokedSubject(key.id),
    payload: eventPayload(API_KEY_REVOKED, {
      id,
      type: API_KEY_REVOKED_TYPE,
      occurredAt: at.getTime(),
      accountId: key.accountId,
      keyId: key.id,
      mode: key.mode,
    }),
  };
}
