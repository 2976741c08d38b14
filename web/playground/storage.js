// What the page keeps across a reload of the tab: sessionStorage, for this tab only, forgotten
// when the tab closes. Every value is a string under its own name; storage may be refused (a
// sandboxed frame, a privacy setting) or full, and the page then keeps things in memory only.

const PREFIX = 'chunker-playground:';

/** The value kept under `name`, or null: none kept, or storage refused. */
export function stored(name) {
  try {
    return sessionStorage.getItem(PREFIX + name);
  } catch {
    return null;
  }
}

/** The JSON value kept under `name`, or null: none kept, refused, or not JSON (kept by
 * another version of the page). */
export function storedJson(name) {
  try {
    return JSON.parse(stored(name) ?? 'null');
  } catch {
    return null;
  }
}

/**
 * Keep `value` under `name`: 'kept', or why not: 'full' (over the tab's quota of a few MB) or
 * 'refused' (no storage here). When not kept, an older value is dropped too, so that a reload
 * never brings back a stale one.
 */
export function store(name, value) {
  try {
    sessionStorage.setItem(PREFIX + name, value);
    return 'kept';
  } catch (error) {
    forget(name);
    return error?.name === 'QuotaExceededError' ? 'full' : 'refused';
  }
}

export function forget(name) {
  try {
    sessionStorage.removeItem(PREFIX + name);
  } catch {
    // no storage at all: nothing was kept
  }
}
