/**
 * Runs tasks with the same key one after another (in arrival order) and tasks
 * with different keys concurrently: the merges of one user on one instance queue
 * instead of colliding on the optimistic version check, and on SQLite the
 * transactions queue on their one shared connection (`TransactionRunner`).
 */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous ? previous.then(task) : task();
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
