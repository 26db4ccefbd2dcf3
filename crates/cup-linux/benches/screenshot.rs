//! Screenshot benchmark (work in progress).

fn main() {}
