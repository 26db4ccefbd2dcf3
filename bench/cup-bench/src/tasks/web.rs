use super::Task;
pub struct Server;
pub(super) fn tasks() -> Vec<Task> { Vec::new() }
