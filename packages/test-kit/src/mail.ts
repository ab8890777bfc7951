import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One mail the sink accepted (answered 250), parsed. */
export interface ReceivedMail {
  readonly envelopeFrom: string;
  readonly envelopeTo: readonly string[];
  readonly parsed: ParsedMail;
  readonly messageId: string;
  /** When the server accepted it (ms since the epoch): the catcher's own record; the sink's clock for the sink. */
  readonly receivedAt: number;
}

export interface MailSink {
  readonly host: string;
  readonly port: number;
  /** Every mail accepted so far, in order. */
  readonly mails: readonly ReceivedMail[];
  /** How the next DATA commands are answered: accept, refuse (421 for a while, or 550 for good), or hold. */
  behave(mode: SinkMode): void;
  close(): Promise<void>;
}

/**
 * `accept`: 250 at once. `delay`: 250 after `ms` (a slow server: the sender can be killed while it
 * waits, and a mail whose connection closed first is not counted, since no 250 reached anyone); with
 * `to`, only mails to that address wait and the others are taken at once (one slow mailbox).
 * `temporary`: 451 (try later). `permanent`: 550 (refused for good).
 */
export type SinkMode = { kind: 'accept' } | { kind: 'delay'; ms: number; to?: string } | { kind: 'temporary' } | { kind: 'permanent' };

/**
 * A real SMTP server on 127.0.0.1 (smtp-server, no TLS, any login) that keeps what it accepted,
 * parsed by mailparser: tests read headers and bodies the way a mailbox would.
 */
export async function startMailSink(): Promise<MailSink> {
  const mails: ReceivedMail[] = [];
  let mode: SinkMode = { kind: 'accept' };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'test' });
    },
    onData(stream, session, callback) {
      const current = mode;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (async () => {
          if (current.kind === 'temporary') return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          if (current.kind === 'permanent') return callback(Object.assign(new Error('Mailbox refused'), { responseCode: 550 }));
          const slowed =
            current.kind === 'delay' && (current.to === undefined || session.envelope.rcptTo.some((r) => r.address === current.to));
          if (slowed) await new Promise((resolve) => setTimeout(resolve, current.ms));
          // The client went away while we waited: it never saw a 250, so the mail was not handed over.
          if (closed.has(session.id)) return callback(new Error('connection closed'));
          const parsed = await simpleParser(Buffer.concat(chunks));
          mails.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            parsed,
            messageId: parsed.messageId ?? '',
            receivedAt: Date.now(),
          });
          callback();
        })();
      });
    },
    onClose(session) {
      closed.add(session.id);
    },
  });
  const closed = new Set<string>();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    mails,
    behave(next) {
      mode = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * What a maildev catcher (./scripts/start's local mail catcher) holds, read through its REST API
 * (`/api/email/summary`, `/api/email/:id/source`) and parsed like the sink's mails.
 */
export async function caughtMails(catcherUrl: string): Promise<ReceivedMail[]> {
  // maildev answers at most 200 summaries a page, whatever `limit` asks: read page after page.
  const items: { id: string; time: string }[] = [];
  for (;;) {
    const page = (await (await fetch(`${catcherUrl}/api/email/summary?limit=200&skip=${items.length}&sort=asc`)).json()) as {
      items: { id: string; time: string }[];
    };
    items.push(...page.items);
    if (page.items.length === 0) break;
  }
  const mails: ReceivedMail[] = [];
  for (const { id, time } of items) {
    const source = await (await fetch(`${catcherUrl}/api/email/${encodeURIComponent(id)}/source`)).text();
    const parsed = await simpleParser(source);
    const to = parsed.to ? (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((a) => a.value.map((v) => v.address ?? '')) : [];
    mails.push({
      envelopeFrom: parsed.from?.value[0]?.address ?? '',
      envelopeTo: to,
      parsed,
      messageId: parsed.messageId ?? '',
      receivedAt: Date.parse(time),
    });
  }
  return mails;
}
