import { type Router, type Request, type Response } from 'express';
import { ApiError } from '@hc/errors';
import { callTimeoutMs, checkoutWritesBarrier, type ReadBarrier } from '@hc/grpc';
import type { Customer } from '@hc/proto/customers/v1';
import { formatAmounts, formatMoney, formatTime, pageSize } from '../../domain/format.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { isInvalidCursor, renderNoSuchPage, renderPage } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

/** How long a customers read waits for the merchant's answered writes to be applied (docs/adr/0011). */
const READ_WAIT_MS = 2_000;
/** A note is for staff: short text, as the operator CLI takes it. */
const NOTE_MAX = 2_000;

function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** What a customer's row and page show. */
function customerView(customer: Customer) {
  return {
    id: customer.id,
    email: customer.email ?? null,
    name: customer.name ?? null,
    phone: customer.phone ?? null,
    erased: customer.erased,
    ordersCount: customer.ordersCount,
    paidOrdersCount: customer.paidOrdersCount,
    spent: formatAmounts(customer.spent?.amounts ?? {}),
    created: formatTime(customer.created),
    lastOrderAt: formatTime(customer.lastOrderAt),
  };
}

/** The barrier on the merchant's answered writes, and the call options that wait for it. */
type Reading = (res: Response) => Promise<{ barrier: ReadBarrier; options: { timeoutMs: number } }>;

/**
 * /dashboard/{mode}/customers: list and search by email, a customer's page with its orders and the
 * private note, and Delete data (typed confirmation; irreversible, the spec says so). Every read waits
 * on the merchant's answered writes first (read-your-writes), as the API's customer reads do.
 */
export function customersRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');
  const reading: Reading = async (res) => ({
    barrier: await checkoutWritesBarrier(platform.checkout, callContext(res, modeOf(res)), READ_WAIT_MS),
    options: { timeoutMs: callTimeoutMs(READ_WAIT_MS) },
  });

  router.get('/customers', async (req, res) => {
    const mode = modeOf(res);
    const email = typeof req.query['email'] === 'string' ? req.query['email'].trim().slice(0, 254) : '';
    const after = typeof req.query['starting_after'] === 'string' ? req.query['starting_after'] : undefined;
    const limit = pageSize(req.query['limit']);
    const { barrier, options } = await reading(res);
    let found: { customers: Customer[]; hasMore: boolean };
    try {
      found = await platform.customers.listCustomers(
        { limit, startingAfter: after, email: email || undefined, barrier },
        callContext(res, mode),
        options,
      );
    } catch (error) {
      // A cursor of another account or mode is not a page of this list; a malformed search finds nobody.
      if (isInvalidCursor(error)) return renderNoSuchPage(res);
      if (!(error instanceof ApiError) || !error.code.startsWith('invalid_')) throw error;
      found = { customers: [], hasMore: false };
    }
    const rows = found.customers.map(customerView);
    const last = rows.at(-1);
    renderPage(res, 'customers.njk', {
      title: 'Customers',
      area: 'customers',
      email,
      rows,
      next:
        found.hasMore && last
          ? `${modePath(mode, 'customers')}?${new URLSearchParams({ ...(email ? { email } : {}), starting_after: last.id })}`
          : null,
    });
  });

  router.get('/customers/:id', async (req, res) => {
    const mode = modeOf(res);
    const ctx = callContext(res, mode);
    const id = String(req.params['id']);
    const { barrier, options } = await reading(res);
    const { customer } = await platform.customers.getCustomer({ id, barrier }, ctx, options);
    const [{ orders, hasMore }, { note }] = await Promise.all([
      platform.customers.listOrders({ limit: 50, customerId: id, barrier }, ctx, options),
      platform.customers.getCustomerNote({ id, barrier }, ctx, options),
    ]);
    renderPage(res, 'customer.njk', {
      title: customer?.email ?? 'Customer',
      area: 'customers',
      customer: customerView(customer!),
      orders: orders.map((order) => ({
        id: order.id,
        status: order.status,
        amount: formatMoney(order.amount, order.currency),
        created: formatTime(order.created),
        paidAt: formatTime(order.paidAt),
      })),
      moreOrders: hasMore,
      note: note ?? '',
      noteMax: NOTE_MAX,
    });
  });

  router.post('/customers/:id/note', async (req, res) => {
    const mode = modeOf(res);
    const id = String(req.params['id']);
    const note = field(req, 'note').slice(0, NOTE_MAX);
    const { barrier, options } = await reading(res);
    await platform.customers.setCustomerNote({ id, note, barrier }, callContext(res, mode), options);
    await redirectWithFlash(deps, res, modePath(mode, 'customers', id), note ? 'Note saved.' : 'Note cleared.');
  });

  deleteDataRoutes(router, platform, deps, reading);
  return router;
}

/** Delete data: the confirmation page, and the erasure once the customer's email is typed. */
function deleteDataRoutes(router: Router, platform: PlatformClients, deps: DashboardDependencies, reading: Reading): void {
  router.get('/customers/:id/delete', async (req, res) => {
    const mode = modeOf(res);
    const { barrier, options } = await reading(res);
    const { customer } = await platform.customers.getCustomer({ id: String(req.params['id']), barrier }, callContext(res, mode), options);
    renderPage(res, 'customer-delete.njk', {
      title: 'Delete customer data',
      area: 'customers',
      customer: customerView(customer!),
      problem: null,
    });
  });

  router.post('/customers/:id/delete', async (req, res) => {
    const mode = modeOf(res);
    const ctx = callContext(res, mode);
    const id = String(req.params['id']);
    const { barrier, options } = await reading(res);
    const { customer } = await platform.customers.getCustomer({ id, barrier }, ctx, options);
    const view = customerView(customer!);
    if (view.erased) return redirectWithFlash(deps, res, modePath(mode, 'customers', id), 'This customer’s data was already deleted.');
    // The user types the customer's email: a slip of the mouse cannot delete anyone's data.
    if (field(req, 'confirm').trim().toLowerCase() !== (view.email ?? '').toLowerCase())
      return renderPage(
        res,
        'customer-delete.njk',
        {
          title: 'Error: Delete customer data',
          area: 'customers',
          customer: view,
          problem: 'Type the customer’s email exactly to confirm.',
        },
        400,
      );
    // Erasure is answered once checkout and webhooks have applied it too: give it the operator's wait.
    await platform.customers.eraseCustomer({ id, barrier }, ctx, { timeoutMs: callTimeoutMs(15_000) });
    await redirectWithFlash(deps, res, modePath(mode, 'customers', id), 'The customer’s personal data was deleted everywhere we kept it.');
  });
}
