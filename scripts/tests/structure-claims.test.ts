// Risk covered: the docs' structural claims (README "Layout", docs/events.md, docs/adr/README.md) drift
// from the tree while CI stays green: a new folder or top-level file in a service's src/, a layer
// import the README says cannot happen, a NATS subject written outside the one place subjects are
// defined, an ADR number used twice or missing from the index, checkout's aggregate declared under
// the API resource's name again (docs/adr/0104). The repository must pass every check,
// and a fixture tree that breaks each claim once must be refused by it (so no check passes vacuously).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  adrViolations,
  aggregateNameViolations,
  folderRoleViolations,
  layerViolations,
  subjectLiteralViolations,
  structureViolations,
} from '../structure-claims.ts';

const repository = join(import.meta.dirname, '..', '..');

describe('the repository', () => {
  it('keeps every structural claim its docs make', () => {
    expect(structureViolations(repository)).toEqual([]);
  });
});

describe('a tree that breaks each claim once', () => {
  let root: string;
  const write = (path: string, text = ''): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'structure-claims-'));
    write('services/alpha/src/main.ts');
    write('services/alpha/src/alpha-service.ts');
    write('services/alpha/src/helpers.ts');
    write('services/alpha/src/widgets/widget.ts');
    write('services/alpha/src/api/rest/route.ts');
    write('services/alpha/src/store/rows.ts', 'export const rows = 1;\n');
    write('services/alpha/src/domain/rule.ts', "import { rows } from '../store/rows.ts';\nexport const rule = rows;\n");
    write('services/alpha/src/api/http/routes.ts', "import { rows } from '../../store/rows.ts';\nexport const routes = rows;\n");
    write('services/alpha/src/api/http/fine.ts', "import { rule } from '../../domain/rule.ts';\nexport const fine = rule;\n");
    write(
      'services/alpha/src/adapters/stream.ts',
      "// checkout.payment.paid in a comment is fine\nexport const subject = 'checkout.payment.paid';\nexport const template = `settlement.verdict.${'x'}`;\nexport const action = 'checkout.create';\n",
    );
    write(
      'services/checkout/src/domain/payment.ts',
      'export interface CheckoutSessionLike { id: string }\nexport interface Payment { id: string }\nexport type CheckoutSessionStatus = string;\n',
    );
    write('services/checkout/src/store/generated/prisma/models/CheckoutSession.ts', 'export type CheckoutSessionModel = { id: string };\n');
    write(
      'services/checkout/src/api/grpc/handlers.ts',
      'export const handlers = { getCheckoutSession() {} };\nclass CheckoutSessionStore {}\nexport { CheckoutSessionStore };\n',
    );
    write('docs/adr/0001-first.md');
    write('docs/adr/0001-again.md');
    write('docs/adr/0002-unlisted.md');
    write(
      'docs/adr/README.md',
      '| # | Decision |\n| [0001](0001-first.md) | First |\n| [0001](0001-again.md) | Again |\n| [0003](0003-gone.md) | Gone |\n',
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('refuses a folder that is not a role, a stray top-level file and an unknown api/ kind', () => {
    const found = folderRoleViolations(root).filter((violation) => !violation.includes('listed as an exception'));
    expect(found.sort()).toEqual([
      expect.stringContaining('services/alpha/src/api/rest: api/ holds only'),
      expect.stringContaining('services/alpha/src/helpers.ts: a file directly in src/'),
      expect.stringContaining('services/alpha/src/widgets/: not one of the six roles'),
    ]);
  });

  it('refuses domain/ → store/ and api/ → store/, and allows api/ → domain/', () => {
    expect(layerViolations(root).sort()).toEqual([
      expect.stringContaining('services/alpha/src/api/http/routes.ts: api/ imports store/'),
      expect.stringContaining('services/alpha/src/domain/rule.ts: domain/ imports store/'),
    ]);
  });

  it('refuses subject literals in code, not in comments or other dotted names', () => {
    expect(subjectLiteralViolations(root)).toEqual([
      expect.stringContaining('services/alpha/src/adapters/stream.ts:2: subject literal "checkout.payment.paid"'),
      expect.stringContaining('services/alpha/src/adapters/stream.ts:3: subject literal "settlement.verdict."'),
    ]);
  });

  it("refuses a type, interface or class of checkout's src/ named CheckoutSession…, not generated code or a handler method", () => {
    expect(aggregateNameViolations(root).sort()).toEqual([
      expect.stringContaining('services/checkout/src/api/grpc/handlers.ts:2: CheckoutSessionStore'),
      expect.stringContaining('services/checkout/src/domain/payment.ts:1: CheckoutSessionLike'),
      expect.stringContaining('services/checkout/src/domain/payment.ts:3: CheckoutSessionStatus'),
    ]);
  });

  it('refuses a reused ADR number, an unlisted record and a listed record with no file', () => {
    expect(adrViolations(root).sort()).toEqual([
      'ADR 0001 is used twice: 0001-again.md, 0001-first.md',
      'docs/adr/0002-unlisted.md: not listed in docs/adr/README.md',
      'docs/adr/README.md: 0003-gone.md is listed but no such record',
    ]);
  });
});
