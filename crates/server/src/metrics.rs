//! Prometheus metrics: the recorder (installed once per process) and the `/metrics` route.
//!
//! What is measured (docs/protocol.md lists them): actions accepted and refused by code, action
//! latency, the store writer's batch sizes and commit times, live tables, sockets, subscriptions,
//! and rate-limit refusals. The route answers only clients on the machine or a private network
//! (a Prometheus beside the server); the public internet gets 404.

use crate::error::ApiError;
use crate::http::extract::ClientIp;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::net::IpAddr;
use std::sync::OnceLock;

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Latency buckets, in seconds: an action takes about a commit (milliseconds), a slow one seconds.
const SECONDS_BUCKETS: &[f64] = &[0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// Batch-size buckets (the writer commits at most 256 appends at once).
const BATCH_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// Installs the process's recorder (once; later calls reuse it) and returns its handle. `None`
/// if another recorder was installed first (metrics are then not served).
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS_BUCKETS)
                .and_then(|b| b.set_buckets_for_metric(Matcher::Suffix("_batch_size".into()), BATCH_BUCKETS));
            match builder.and_then(PrometheusBuilder::install_recorder) {
                Ok(handle) => Some(handle),
                Err(e) => {
                    tracing::warn!(error = %e, "metrics recorder not installed");
                    None
                }
            }
        })
        .as_ref()
}

/// Drops expired histogram samples (call periodically).
pub fn upkeep() {
    if let Some(handle) = install() {
        handle.run_upkeep();
    }
}

fn local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        IpAddr::V6(v6) => v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback() || v4.is_private()),
    }
}

/// `GET /metrics`: the Prometheus text format, for clients on this machine or a private network.
pub(crate) async fn scrape(ClientIp(ip): ClientIp) -> Result<String, ApiError> {
    if !local(ip) {
        return Err(ApiError::NoRoute);
    }
    install().map(PrometheusHandle::render).ok_or(ApiError::NoRoute)
}

/// Records one client action's answer and how long the table took to give it.
pub fn action_done(result: &Result<u64, ApiError>, took: std::time::Duration) {
    // The handles of an accepted action, looked up once (after the recorder is installed, so
    // that they are its own): every action records through them without finding them by name.
    static ACCEPTED: OnceLock<(::metrics::Counter, ::metrics::Histogram)> = OnceLock::new();
    let (accepted, seconds) = ACCEPTED.get_or_init(|| {
        install();
        (
            ::metrics::counter!("chapterhouse_actions_total", "result" => "accepted"),
            ::metrics::histogram!("chapterhouse_action_seconds"),
        )
    });
    match result {
        Ok(_) => accepted.increment(1),
        Err(e) => ::metrics::counter!("chapterhouse_actions_total", "result" => e.code()).increment(1),
    }
    seconds.record(took.as_secs_f64());
}

/// Records one store batch: how many appends, and how long its commit took.
pub fn batch_committed(size: usize, took: std::time::Duration) {
    ::metrics::histogram!("chapterhouse_store_batch_size").record(size as f64);
    ::metrics::histogram!("chapterhouse_store_commit_seconds").record(took.as_secs_f64());
}

/// Records the number of live tables.
pub fn live_tables(n: usize) {
    ::metrics::gauge!("chapterhouse_live_tables").set(n as f64);
}

/// Records how many sockets of other nodes follow this node's tables (cluster mode).
pub fn remote_subscribers(n: usize) {
    ::metrics::gauge!("chapterhouse_remote_sockets").set(n as f64);
}

/// Records a socket subscription (a game or a lobby) starting (+1) or ending (-1).
pub fn subscriptions(delta: f64) {
    ::metrics::gauge!("chapterhouse_subscriptions").increment(delta);
}
