/**
 * Operator CLI: `users create` — a person who signs in to the merchant dashboard. The dashboard owns
 * its users (docs/adr/0028), so this goes over gRPC to its internal listener (DASHBOARD_GRPC_ADDRESS);
 * operator.ts has checked the account exists. Without --password-stdin the answer is a one-time
 * link for the user to set the password; with it, the password is read from stdin (never argv, which
 * other users of the machine can see).
 */
import { createToolClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { need, UsageError } from './arguments.ts';
import { accountOf, type CommandInput, type OperatorCommand } from './operator-command.ts';

export const USER_COMMANDS: OperatorCommand[] = [
  {
    words: 'users create',
    synopsis: 'ACCOUNT_ID --email E [--role owner|admin|developer|viewer] [--password-stdin]',
    summary: 'Makes a dashboard user of an account; prints a one-time link to set the password (valid 24 hours).',
    details: [
      'With --password-stdin the password (12 to 200 characters) is read from the first line of stdin and no link is made.',
      "--role: what the user may do (docs/dashboard-roles.md); owner when absent. Recorded in the account's audit log.",
      'Reads DASHBOARD_GRPC_ADDRESS (default 127.0.0.1:50056). An email that already has a user: email_taken (exit 1).',
    ],
    // The dashboard records it in the account's audit log itself, with the user.
    audited: false,
    run: createDashboardUser,
  },
];

async function createDashboardUser(input: CommandInput): Promise<Record<string, unknown>> {
  const account = await accountOf(input);
  const { values } = input;
  const password = values['password-stdin'] ? await firstLineOfStdin() : '';
  if (values['password-stdin'] && password === '') throw new UsageError('--password-stdin: no password on stdin');
  const address = process.env['DASHBOARD_GRPC_ADDRESS'] ?? '127.0.0.1:50056';
  const client = createToolClient<typeof DashboardUsersService, PublicCallContext>(
    DashboardUsersService,
    address,
    input.config.GRPC_TIMEOUT_MS,
  );
  try {
    const { user, setPasswordUrl, setPasswordExpires } = await client.createUser(
      { accountId: account.id, email: need(values.email, '--email'), password, role: values.role },
      { requestId: `operator_${Date.now()}` },
    );
    return {
      id: user?.id,
      account_id: user?.accountId,
      email: user?.email,
      created: user?.created,
      role: user?.role,
      password_set: user?.passwordSet ?? false,
      set_password_url: setPasswordUrl ?? null,
      set_password_expires: setPasswordExpires ?? null,
    };
  } finally {
    client.close();
  }
}

async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > 1000) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}
