//! What a run measured: counters, latency samples and sizes, and the load generator's own CPU.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Counters and samples shared by every game slot.
#[derive(Default)]
pub struct Stats {
    /// Actions the server acknowledged.
    pub accepted: AtomicU64,
    /// Actions the server refused.
    pub rejected: AtomicU64,
    /// Games given up because one of their accounts reached a rate limit for people.
    pub rate_limited: AtomicU64,
    /// Games played to their end.
    pub games_finished: AtomicU64,
    /// How many patch frames to print.
    pub show_frames: u64,
    /// How many were printed.
    pub shown: AtomicU64,
    /// Game slots whose first game is set up and subscribed.
    pub ready: AtomicU64,
    /// Game slots in the run.
    pub slots: u64,
    /// When the last slot's first game was set up: the measurement window opens then.
    pub all_ready: std::sync::OnceLock<std::time::Instant>,
    pub(crate) samples: Mutex<Samples>,
}

/// One action's timings, in microseconds from sending it.
pub struct ActionTiming {
    /// The last subscriber's patch of the new version.
    pub last_patch_us: u64,
    /// The mover's own patch.
    pub own_patch_us: u64,
    /// The mover's ack.
    pub ack_us: u64,
}

/// What the timed actions measured, as histograms: a run's memory stays the same however many
/// actions it times (a list of every sample grew by ~90 bytes an action, and growing it, copies
/// and page faults included, was ~5% of the generator's CPU in a profile of 200 saturated games).
#[derive(Default)]
pub(crate) struct Samples {
    last_patch_us: Histogram,
    ack_us: Histogram,
    ack_after_patch_us: Histogram,
    patch_bytes: Histogram,
    patch_ops_bytes: Histogram,
}

/// Bits of a value kept below its leading one: values below 2^(SUB_BITS + 1) are counted
/// exactly, larger ones in buckets 1/2^SUB_BITS of their size wide.
const SUB_BITS: u32 = 8;

/// Counts of `u64` values: exact up to 511, above that in buckets at most 1/256 of the value
/// wide. A percentile is read as its bucket's upper end (never below the value it stands for),
/// and the largest value is kept exactly.
pub(crate) struct Histogram {
    counts: Vec<u64>,
    n: u64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { counts: vec![0; Histogram::bucket(u64::MAX) + 1], n: 0, max: 0 }
    }
}

impl Histogram {
    /// The bucket of `v`: `v` itself below 2^(SUB_BITS + 1); above, the value's top SUB_BITS + 1
    /// bits, after one run of 2^SUB_BITS buckets for each power of two.
    fn bucket(v: u64) -> usize {
        if v < 1 << (SUB_BITS + 1) {
            return v as usize;
        }
        let shift = 63 - v.leading_zeros() - SUB_BITS;
        ((shift as usize) << SUB_BITS) + (v >> shift) as usize
    }

    /// The largest value bucket `i` holds.
    fn upper(i: usize) -> u64 {
        if i < 1 << (SUB_BITS + 1) {
            return i as u64;
        }
        let shift = (i >> SUB_BITS) - 1;
        let top = (i - (shift << SUB_BITS)) as u64;
        // The last bucket ends at u64::MAX, where the shift carries out of the word.
        ((top + 1) << shift).wrapping_sub(1)
    }

    fn add(&mut self, v: u64) {
        self.counts[Self::bucket(v)] += 1;
        self.n += 1;
        self.max = self.max.max(v);
    }

    fn len(&self) -> u64 {
        self.n
    }

    /// The value at rank `round((n - 1) * p)` of the sorted values, as its bucket's upper end (the
    /// exact value up to 511), and never above the largest value; 0 when there is none.
    fn percentile(&self, p: f64) -> u64 {
        if self.n == 0 {
            return 0;
        }
        let rank = ((self.n as f64 - 1.0) * p).round() as u64;
        let mut seen = 0;
        for (i, count) in self.counts.iter().enumerate() {
            seen += count;
            if seen > rank {
                return Self::upper(i).min(self.max);
            }
        }
        self.max
    }
}

impl Stats {
    /// Records one accepted action and, per subscriber, the size of the patch frame it received
    /// and of the patch in it.
    pub fn record(&self, timing: ActionTiming, patch_bytes: &[(u64, u64)]) {
        self.accepted.fetch_add(1, Ordering::Relaxed);
        // Latencies count once every slot has set up its game: before that, thousands of games
        // being created (accounts, lobbies, sockets) share the server with the first actions.
        if self.all_ready.get().is_none() {
            return;
        }
        let mut s = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        s.last_patch_us.add(timing.last_patch_us);
        s.ack_us.add(timing.ack_us);
        s.ack_after_patch_us.add(timing.ack_us.saturating_sub(timing.own_patch_us));
        for (frame, ops) in patch_bytes {
            s.patch_bytes.add(*frame);
            s.patch_ops_bytes.add(*ops);
        }
    }

    /// Counts one more slot whose first game is set up and subscribed; the last one opens the
    /// measurement window.
    pub fn slot_ready(&self) {
        if self.ready.fetch_add(1, Ordering::Relaxed) + 1 == self.slots {
            let _ = self.all_ready.set(std::time::Instant::now());
        }
    }

    /// Prints the report; `started` is when the run began, `cpu` this process's CPU time over
    /// the run, `server` the server's (when its process id was given).
    pub fn report(&self, started: std::time::Instant, cpu: CpuTimes, server: Option<CpuTimes>) {
        let elapsed = started.elapsed().as_secs_f64();
        let cpu_seconds = cpu.total();
        let guard = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        let s = &*guard;
        let accepted = self.accepted.load(Ordering::Relaxed);
        println!("elapsed:              {elapsed:.1} s (including game setup)");
        println!("accepted actions:     {accepted}");
        // Over the window after set-up, as boardgame.io's load.js measures its moves per second:
        // the actions timed there (sent once every slot was set up) over the window's length.
        match self.all_ready.get() {
            Some(ready) => {
                let setup = ready.duration_since(started).as_secs_f64();
                let window = (elapsed - setup).max(f64::EPSILON);
                println!(
                    "set-up:               {setup:.2} s (until every slot's first game was set up and subscribed)"
                );
                println!(
                    "actions per second:   {:.0} (the {} actions timed over the {window:.1} s after set-up)",
                    s.last_patch_us.len() as f64 / window,
                    s.last_patch_us.len()
                );
            }
            None => println!("set-up:               never complete (a slot failed before its first game started)"),
        }
        println!(
            "whole run:            {:.0} actions per second (all {accepted} over {elapsed:.1} s, set-up included)",
            accepted as f64 / elapsed
        );
        println!("games finished:       {}", self.games_finished.load(Ordering::Relaxed));
        println!("refused actions:      {}", self.rejected.load(Ordering::Relaxed));
        let limited = self.rate_limited.load(Ordering::Relaxed);
        if limited > 0 {
            println!("rate-limited games:   {limited} (an account went faster than a person may: its slot took in more players)");
        }
        let ms = |h: &Histogram, p| h.percentile(p) as f64 / 1000.0;
        println!("timed actions:        {} (those sent once every game slot was set up)", s.last_patch_us.len());
        println!(
            "action -> last patch: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(&s.last_patch_us, 0.5),
            ms(&s.last_patch_us, 0.99),
            ms(&s.last_patch_us, 1.0)
        );
        println!(
            "action -> ack:        p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(&s.ack_us, 0.5),
            ms(&s.ack_us, 0.99),
            ms(&s.ack_us, 1.0)
        );
        println!(
            "ack after own patch:  p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            ms(&s.ack_after_patch_us, 0.5),
            ms(&s.ack_after_patch_us, 0.99),
            ms(&s.ack_after_patch_us, 1.0)
        );
        println!(
            "patch frame bytes per receiving client: median {}, p99 {}, max {}",
            s.patch_bytes.percentile(0.5),
            s.patch_bytes.percentile(0.99),
            s.patch_bytes.percentile(1.0)
        );
        println!(
            "RFC 6902 patch bytes in it:             median {}, p99 {}, max {}",
            s.patch_ops_bytes.percentile(0.5),
            s.patch_ops_bytes.percentile(0.99),
            s.patch_ops_bytes.percentile(1.0)
        );
        println!(
            "loadgen cpu:          {:.0}% of a core, {:.1} us per accepted action",
            100.0 * cpu_seconds / elapsed,
            1e6 * cpu_seconds / (accepted.max(1) as f64)
        );
        if let Some(server) = server {
            let per_action = |seconds: f64| 1e6 * seconds / (accepted.max(1) as f64);
            println!(
                "server cpu:           {:.0}% of a core, {:.1} us per accepted action (user {:.1} + system {:.1})",
                100.0 * server.total() / elapsed,
                per_action(server.total()),
                per_action(server.user),
                per_action(server.system)
            );
        }
    }
}

/// CPU time a process has used so far, in seconds, split as /proc splits it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CpuTimes {
    /// In user space.
    pub user: f64,
    /// In the kernel on its behalf (system calls, and on loopback the receiving socket's work).
    pub system: f64,
}

impl CpuTimes {
    /// Both together.
    pub fn total(self) -> f64 {
        self.user + self.system
    }

    /// What was used between `earlier` and `self`.
    pub fn since(self, earlier: CpuTimes) -> CpuTimes {
        CpuTimes { user: self.user - earlier.user, system: self.system - earlier.system }
    }
}

/// CPU time used so far by process `pid` ("self" for this one); zero where /proc cannot be read.
pub fn cpu_times(pid: &str) -> CpuTimes {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return CpuTimes::default() };
    parse_cpu_times(&stat)
}

/// utime and stime from a `/proc/<pid>/stat` line.
fn parse_cpu_times(stat: &str) -> CpuTimes {
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line (indexes 11 and 12 from the state, field
    // 3); /proc counts them in USER_HZ, which is 100 on Linux.
    CpuTimes { user: ticks(11) / 100.0, system: ticks(12) / 100.0 }
}

/// Resident memory of process `pid`, in KiB; 0 where /proc cannot be read.
pub fn rss_kib(pid: &str) -> u64 {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else { return 0 };
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The percentile of the sorted list, as the report read it before histograms.
    fn exact(sorted: &[u64], p: f64) -> u64 {
        sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
    }

    #[test]
    fn a_histogram_reads_small_values_exactly_and_large_ones_within_a_256th_never_below() {
        for v in [0, 1, 255, 511, 512, 513, 1000, 1023, 1024, 123_456, 9_999_999, u64::MAX - 1, u64::MAX] {
            let (i, top) = (Histogram::bucket(v), Histogram::upper(Histogram::bucket(v)));
            assert!(top >= v, "{v}: bucket {i} ends at {top}");
            assert!(top - v <= v / 256, "{v}: bucket {i} ends at {top}, more than a 256th above");
            if v < 512 {
                assert_eq!(top, v, "exact below 512");
            }
            if i > 0 {
                assert!(Histogram::upper(i - 1) < v, "{v} belongs to no earlier bucket");
            }
        }
        // Samples spread over five orders of magnitude (latencies in µs, sizes in bytes).
        let mut rng = game_core::GameRng::from_u64(7);
        let mut values: Vec<u64> =
            (0..20_000).map(|_| (rng.below(1 << 10) * rng.below(1 << 10) / (1 + rng.below(64))) as u64).collect();
        let mut h = Histogram::default();
        for v in &values {
            h.add(*v);
        }
        values.sort_unstable();
        assert_eq!(h.len(), 20_000);
        for p in [0.0, 0.01, 0.5, 0.9, 0.99, 0.999, 1.0] {
            let (want, got) = (exact(&values, p), h.percentile(p));
            assert!(got >= want && got - want <= want / 256, "p{p}: {got}, exactly {want}");
        }
        assert_eq!(h.percentile(1.0), *values.last().unwrap(), "the largest value exactly");
        assert_eq!(Histogram::default().percentile(0.5), 0, "nothing recorded");
    }

    #[test]
    fn cpu_times_are_read_after_the_command_name_even_when_it_holds_spaces_and_parentheses() {
        let stat = "4242 (odd (name) here) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0 12345";
        assert_eq!(parse_cpu_times(stat), CpuTimes { user: 2.5, system: 0.75 });
        let later = CpuTimes { user: 4.0, system: 1.0 };
        assert_eq!(later.since(parse_cpu_times(stat)), CpuTimes { user: 1.5, system: 0.25 });
        assert_eq!(later.total(), 5.0);
        assert_eq!(parse_cpu_times("garbage"), CpuTimes::default());
    }
}
