//! Link flags for a Node-API addon (undefined N-API symbols resolved by the
//! node process that loads it).

fn main() {
    napi_build::setup();
}
