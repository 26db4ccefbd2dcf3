//! The `Session` over a scripted adapter (no desktop): the ids a snapshot
//! assigns and the native references an action reaches, snapshots that
//! replace each other, the scopes and the app filter as the adapter sees
//! them, `find` and `page` on the kept snapshot, changes-only snapshots
//! (`since`) with their stable ids, batches, and adapter
//! errors as session errors.

#[path = "../support/scripted.rs"]
mod scripted;

mod apps;
mod batch;
mod budget;
mod errors;
mod find_page;
mod ids;
mod scopes;
mod since;
