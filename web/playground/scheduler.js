// Live re-chunking without piling up work: one run at a time, and only the latest request
// counts. Requests made while a run is in flight replace each other; when the run answers,
// its result is dropped if a newer request was made meanwhile, and the newest one runs.

/**
 * `work(job)` answers a promise of a result; `onResult(result, job)` draws it and
 * `onError(error, job)` reports it, each only for the newest request. `onBusy(busy)` says
 * when runs start and stop.
 */
export function createScheduler(work, { onResult, onError, onBusy }) {
  let pending = null;
  let running = false;
  let latest = 0;

  async function drain() {
    running = true;
    onBusy(true);
    while (pending) {
      const { job, generation } = pending;
      pending = null;
      let outcome;
      try {
        outcome = { result: await work(job) };
      } catch (error) {
        outcome = { error };
      }
      if (generation !== latest) continue;  // stale: a newer request is waiting
      if ('error' in outcome) onError(outcome.error, job);
      else onResult(outcome.result, job);
    }
    running = false;
    onBusy(false);
  }

  return {
    /** Ask for `job` to run; any older request not yet answered is dropped. */
    request(job) {
      latest += 1;
      pending = { job, generation: latest };
      if (!running) drain();
    },

    /** Drop every request not yet answered: the settings changed to ones the page refuses. */
    cancel() {
      latest += 1;
      pending = null;
    },
  };
}
