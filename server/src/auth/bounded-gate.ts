/**
 * At most `concurrent` pieces of work at once, and at most `queue` more waiting their turn (first
 * come, first served); beyond that `enter` refuses at once, so a flood is answered quickly
 * instead of piling up memory and waiting time.
 */
export class BoundedGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: { concurrent: number; queue: number }) {}

  /**
   * A turn for one piece of work: resolves to its `release` (call it once the work is done, even
   * when it failed) when a slot is free; undefined when every slot and queue place is taken.
   */
  enter(): Promise<() => void> | undefined {
    if (this.running < this.limits.concurrent) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.limits.queue) return undefined;
    return new Promise((resolve) => this.waiting.push(() => resolve(this.releaser())));
  }

  /** Runs `work` in its turn; undefined (without running it) when the gate is full. */
  run<T>(work: () => Promise<T>): Promise<T> | undefined {
    const turn = this.enter();
    if (!turn) return undefined;
    return turn.then(async (release) => {
      try {
        return await work();
      } finally {
        release();
      }
    });
  }

  /** How many pieces of work run now and how many wait. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next in line, so a newcomer cannot overtake it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    };
  }
}
