//! Floods: per-client rate limits and the caps that bound what one client can hold.
//!
//! Rates use `governor` (GCRA: a burst, then a steady rate). A refused request gets
//! `429 proto/rate_limited` with `Retry-After`; a refused socket message gets the same error as a
//! message and is dropped, and the socket stays open. The numbers are the defaults of
//! [`LimitsConfig`], written down in docs/protocol.md.

use crate::error::ApiError;
use crate::ids::AccountId;
use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DashMapStateStore;
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota};
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// [`DefaultKeyedRateLimiter`] with its keys hashed by foldhash (seeded per process), not SipHash.
type FastKeyedRateLimiter<K> =
    governor::RateLimiter<K, DashMapStateStore<K, foldhash::fast::RandomState>, DefaultClock>;

/// A rate: `burst` at once, then one more every `period / burst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// How many at once.
    pub burst: u32,
    /// The period in which `burst` more are allowed again.
    pub period: Duration,
}

impl Rate {
    /// `burst` per `period`.
    pub const fn new(burst: u32, period: Duration) -> Rate {
        Rate { burst, period }
    }

    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst).unwrap_or(NonZeroU32::MIN);
        let each = self.period / burst.get();
        Quota::with_period(each.max(Duration::from_nanos(1))).map_or(Quota::per_second(burst), |q| q.allow_burst(burst))
    }
}

/// Every limit a public server needs, with the defaults it runs with.
#[derive(Clone, Debug)]
pub struct LimitsConfig {
    /// Sign-in attempts, per IP address and per account name.
    pub sign_in: Rate,
    /// New accounts (guests and registrations), per IP address.
    pub new_accounts: Rate,
    /// New lobbies, per account.
    pub new_lobbies: Rate,
    /// Messages, per socket.
    pub socket_messages: Rate,
    /// Messages, per signed-in account (all its sockets together): a few busy tabs, not a fleet
    /// of sockets from many addresses.
    pub account_messages: Rate,
    /// Chat messages, per account (all its sockets and rooms together).
    pub chat: Rate,
    /// Open sockets per IP address.
    pub sockets_per_ip: usize,
    /// Open sockets in all.
    pub sockets_total: usize,
    /// Games plus lobbies one socket may follow at once.
    pub subscriptions_per_socket: usize,
    /// Members of one lobby.
    pub members_per_lobby: usize,
    /// Whether clients on a loopback address skip the per-address limits (sign-ins, new accounts,
    /// sockets). Every client of a reverse proxy on the same host that does not forward addresses
    /// looks like 127.0.0.1, and so does a local load test: limiting them per address would limit
    /// them all together. Per-account, per-socket and total limits still hold.
    pub exempt_loopback: bool,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        const MINUTE: Duration = Duration::from_secs(60);
        LimitsConfig {
            sign_in: Rate::new(10, MINUTE),
            new_accounts: Rate::new(20, Duration::from_secs(3600)),
            new_lobbies: Rate::new(10, MINUTE),
            socket_messages: Rate::new(100, Duration::from_secs(5)),
            account_messages: Rate::new(300, Duration::from_secs(5)),
            // A burst of 5, then one every 2 seconds: a conversation, not a flood.
            chat: Rate::new(5, Duration::from_secs(10)),
            sockets_per_ip: 32,
            sockets_total: 10_000,
            subscriptions_per_socket: 64,
            members_per_lobby: 64,
            exempt_loopback: true,
        }
    }
}

impl LimitsConfig {
    /// No rate limits and no per-address caps (load tests: every player comes from one address).
    /// The total socket count, the subscriptions per socket and the lobby size still hold.
    pub fn unlimited() -> LimitsConfig {
        let plenty = Rate::new(u32::MAX, Duration::from_secs(1));
        LimitsConfig {
            sign_in: plenty,
            new_accounts: plenty,
            new_lobbies: plenty,
            socket_messages: plenty,
            account_messages: plenty,
            chat: plenty,
            sockets_per_ip: usize::MAX,
            ..LimitsConfig::default()
        }
    }
}

/// What is rate-limited, for the error and the metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limited {
    /// Sign-in attempts.
    SignIn,
    /// New accounts.
    NewAccount,
    /// New lobbies.
    NewLobby,
    /// Socket messages.
    SocketMessage,
    /// Chat messages.
    Chat,
}

impl Limited {
    /// The label of this limit in the metrics and logs.
    pub fn label(self) -> &'static str {
        match self {
            Limited::SignIn => "sign_in",
            Limited::NewAccount => "new_account",
            Limited::NewLobby => "new_lobby",
            Limited::SocketMessage => "socket_message",
            Limited::Chat => "chat",
        }
    }
}

/// The server's rate limiters and socket counts.
pub struct Limits {
    /// The numbers.
    pub config: LimitsConfig,
    sign_in_ip: DefaultKeyedRateLimiter<IpAddr>,
    sign_in_name: DefaultKeyedRateLimiter<String>,
    new_accounts: DefaultKeyedRateLimiter<IpAddr>,
    new_lobbies: DefaultKeyedRateLimiter<AccountId>,
    chat: DefaultKeyedRateLimiter<AccountId>,
    /// Checked on every socket message: keys hashed with foldhash (seeded per process), not
    /// SipHash.
    account_messages: FastKeyedRateLimiter<AccountId>,
    sockets: Mutex<SocketCounts>,
    /// The clock each socket's limiter reads. Made once: making one asks the CPU for its
    /// features, which in a virtual machine costs a trap per question.
    clock: DefaultClock,
}

#[derive(Default)]
struct SocketCounts {
    total: usize,
    per_ip: HashMap<IpAddr, usize>,
}

fn refused(what: Limited, not_until: &governor::NotUntil<governor::clock::QuantaInstant>) -> ApiError {
    let wait = not_until.wait_time_from(DefaultClock::default().now());
    ::metrics::counter!("chapterhouse_rate_limited_total", "limit" => what.label()).increment(1);
    ApiError::RateLimited { retry_after: wait.as_secs() + 1 }
}

impl Limits {
    /// Limiters with these numbers.
    pub fn new(config: LimitsConfig) -> Limits {
        Limits {
            sign_in_ip: governor::RateLimiter::keyed(config.sign_in.quota()),
            sign_in_name: governor::RateLimiter::keyed(config.sign_in.quota()),
            new_accounts: governor::RateLimiter::keyed(config.new_accounts.quota()),
            new_lobbies: governor::RateLimiter::keyed(config.new_lobbies.quota()),
            chat: governor::RateLimiter::keyed(config.chat.quota()),
            account_messages: governor::RateLimiter::dashmap_with_clock_and_hasher(
                config.account_messages.quota(),
                DefaultClock::default(),
                foldhash::fast::RandomState::default(),
            ),
            sockets: Mutex::new(SocketCounts::default()),
            clock: DefaultClock::default(),
            config,
        }
    }

    /// A sign-in attempt from `ip` for the account name `name` (compared without case).
    ///
    /// # Errors
    /// `proto/rate_limited`.
    pub fn sign_in(&self, ip: IpAddr, name: &str) -> Result<(), ApiError> {
        if !self.exempt(ip) {
            self.sign_in_ip.check_key(&ip).map_err(|n| refused(Limited::SignIn, &n))?;
        }
        self.sign_in_name.check_key(&name.trim().to_lowercase()).map_err(|n| refused(Limited::SignIn, &n))
    }

    /// A new guest or registered account from `ip`.
    ///
    /// # Errors
    /// `proto/rate_limited`.
    pub fn new_account(&self, ip: IpAddr) -> Result<(), ApiError> {
        if self.exempt(ip) {
            return Ok(());
        }
        self.new_accounts.check_key(&ip).map_err(|n| refused(Limited::NewAccount, &n))
    }

    /// Whether `ip` skips the per-address limits (see [`LimitsConfig::exempt_loopback`]).
    fn exempt(&self, ip: IpAddr) -> bool {
        self.config.exempt_loopback && ip.to_canonical().is_loopback()
    }

    /// A new lobby by `account`.
    ///
    /// # Errors
    /// `proto/rate_limited`.
    pub fn new_lobby(&self, account: &AccountId) -> Result<(), ApiError> {
        self.new_lobbies.check_key(account).map_err(|n| refused(Limited::NewLobby, &n))
    }

    /// A chat message by `account`.
    ///
    /// # Errors
    /// `proto/rate_limited`.
    pub fn chat(&self, account: &AccountId) -> Result<(), ApiError> {
        self.chat.check_key(account).map_err(|n| refused(Limited::Chat, &n))
    }

    /// A socket message from signed-in `account` (on any of its sockets).
    ///
    /// # Errors
    /// `proto/rate_limited`.
    pub fn account_message(&self, account: &AccountId) -> Result<(), ApiError> {
        self.account_messages.check_key(account).map_err(|n| refused(Limited::SocketMessage, &n))
    }

    /// A rate limiter for one socket's messages.
    pub fn socket_messages(&self) -> SocketRate {
        SocketRate(governor::RateLimiter::direct_with_clock(self.config.socket_messages.quota(), self.clock.clone()))
    }

    /// Takes a place for a new socket from `ip`, given back when the returned guard drops.
    ///
    /// # Errors
    /// `server/too_many_sockets` when `ip`, or the server, has as many as allowed.
    pub fn open_socket(self: &Arc<Self>, ip: IpAddr) -> Result<SocketSlot, ApiError> {
        let mut counts = self.sockets.lock().map_err(|_| ApiError::Internal)?;
        let mine = counts.per_ip.get(&ip).copied().unwrap_or(0);
        if counts.total >= self.config.sockets_total || (mine >= self.config.sockets_per_ip && !self.exempt(ip)) {
            return Err(ApiError::TooManySockets);
        }
        counts.total += 1;
        counts.per_ip.insert(ip, mine + 1);
        ::metrics::gauge!("chapterhouse_sockets").set(counts.total as f64);
        Ok(SocketSlot { limits: Arc::clone(self), ip })
    }

    /// Forgets the state of clients not seen for a while (memory stays bounded by recent clients).
    pub fn purge(&self) {
        self.sign_in_ip.retain_recent();
        self.sign_in_name.retain_recent();
        self.new_accounts.retain_recent();
        self.new_lobbies.retain_recent();
        self.chat.retain_recent();
        self.account_messages.retain_recent();
    }
}

/// One socket's message rate.
pub struct SocketRate(DefaultDirectRateLimiter);

impl SocketRate {
    /// One more message.
    ///
    /// # Errors
    /// `proto/rate_limited`.
    pub fn check(&self) -> Result<(), ApiError> {
        self.0.check().map_err(|n| refused(Limited::SocketMessage, &n))
    }
}

/// A socket's place in the counts (see [`Limits::open_socket`]).
pub struct SocketSlot {
    limits: Arc<Limits>,
    ip: IpAddr,
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let Ok(mut counts) = self.limits.sockets.lock() else { return };
        counts.total = counts.total.saturating_sub(1);
        if let Some(n) = counts.per_ip.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.per_ip.remove(&self.ip);
            }
        }
        ::metrics::gauge!("chapterhouse_sockets").set(counts.total as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_next_is_refused_with_a_retry_after() {
        let limits = Limits::new(LimitsConfig { sign_in: Rate::new(3, Duration::from_secs(60)), ..Default::default() });
        let ip: IpAddr = [10, 0, 0, 1].into();
        for _ in 0..3 {
            assert_eq!(limits.sign_in(ip, "Ana"), Ok(()));
        }
        match limits.sign_in(ip, "Ben") {
            Err(ApiError::RateLimited { retry_after }) => assert!((1..=21).contains(&retry_after), "{retry_after}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        let other_ip: IpAddr = [10, 0, 0, 2].into();
        assert!(limits.sign_in(other_ip, "ANA").is_err(), "the name is limited too, whatever its case");
        assert_eq!(limits.sign_in(other_ip, "Cy"), Ok(()));
    }

    #[test]
    fn loopback_clients_skip_the_per_address_limits_unless_told_not_to() {
        let config = LimitsConfig {
            sign_in: Rate::new(1, Duration::from_secs(60)),
            new_accounts: Rate::new(1, Duration::from_secs(60)),
            sockets_per_ip: 1,
            ..Default::default()
        };
        let limits = Arc::new(Limits::new(config.clone()));
        for local in [IpAddr::from([127, 0, 0, 1]), IpAddr::from(std::net::Ipv6Addr::LOCALHOST)] {
            let _slots: Vec<SocketSlot> =
                (0..3).map(|_| limits.open_socket(local).expect("no per-address cap")).collect();
            for _ in 0..3 {
                assert_eq!(limits.new_account(local), Ok(()));
            }
            for name in ["Ana", "Ben"] {
                assert_eq!(limits.sign_in(local, &format!("{name}{local}")), Ok(()));
            }
        }
        let local: IpAddr = [127, 0, 0, 1].into();
        assert!(limits.sign_in(local, "Ana127.0.0.1").is_err(), "the per-name limit still holds on loopback");
        let remote: IpAddr = [10, 0, 0, 1].into();
        let _one = limits.open_socket(remote).unwrap();
        assert_eq!(limits.open_socket(remote).err(), Some(ApiError::TooManySockets), "others are still capped");
        let strict = Arc::new(Limits::new(LimitsConfig { exempt_loopback: false, ..config }));
        let local: IpAddr = [127, 0, 0, 1].into();
        let _first = strict.open_socket(local).unwrap();
        assert_eq!(strict.open_socket(local).err(), Some(ApiError::TooManySockets));
        assert_eq!(strict.new_account(local), Ok(()));
        assert!(strict.new_account(local).is_err(), "without the exemption loopback is one address like any");
    }

    #[test]
    fn sockets_are_counted_per_address_and_given_back() {
        let limits = Arc::new(Limits::new(LimitsConfig { sockets_per_ip: 2, sockets_total: 3, ..Default::default() }));
        let (a, b): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        let first = limits.open_socket(a).unwrap();
        let _second = limits.open_socket(a).unwrap();
        assert_eq!(limits.open_socket(a).err(), Some(ApiError::TooManySockets));
        let _third = limits.open_socket(b).unwrap();
        assert_eq!(limits.open_socket(b).err(), Some(ApiError::TooManySockets), "the total is reached");
        drop(first);
        assert!(limits.open_socket(a).is_ok(), "a closed socket gives its place back");
    }
}
