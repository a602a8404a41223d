import { AsyncLocalStorage } from 'node:async_hooks';

interface Scope {
  open: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();
let guarding = false;

/**
 * From now on, in this process, transactions are tracked and a second connection asked for inside
 * one is refused (DB_TRANSACTION_GUARD). Off by default: on Node 20 tracking the async context
 * makes every promise dearer, on every request.
 */
export function guardTransactions(): void {
  guarding = true;
}

/**
 * Runs `work` marked as holding a transaction's connection. Code that asks the pool for another
 * connection meanwhile can deadlock it: once every pooled connection belongs to such a request,
 * each waits for a connection only another could give back (and its row locks block the others).
 */
export async function withinTransaction<T>(work: () => Promise<T>): Promise<T> {
  if (!guarding) return work();
  const scope: Scope = { open: true };
  try {
    return await scopes.run(scope, work);
  } finally {
    // Callbacks started inside the transaction may outlive it; from here on they hold nothing.
    scope.open = false;
  }
}

/** Whether the calling code runs inside a transaction's work (and so already holds a connection). */
export function holdsTransaction(): boolean {
  return scopes.getStore()?.open === true;
}

/** Raised instead of letting a request that holds a transaction wait for a second connection. */
export class SecondConnectionError extends Error {
  constructor() {
    super(
      'a second database connection was requested inside a transaction; ' +
        "use the transaction's EntityManager for every query of the transaction",
    );
    this.name = 'SecondConnectionError';
  }
}
