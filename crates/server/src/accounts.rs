//! Accounts: password hashing (argon2id), bearer tokens (random; only their SHA-256 is stored),
//! invite codes, the extractors that turn a request's token into an [`Account`], and the
//! [`Sessions`] that let a sign-out reach the sockets opened with its token.

use crate::error::ApiError;
use crate::state::AppState;
use crate::store::Account;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use rand_core::{OsRng, RngCore};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// A fresh bearer token: 32 random bytes as hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What the store keeps of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A fresh invite code: 10 characters from an alphabet without look-alikes (about 50 bits).
pub fn invite_code() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 10];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()])).collect()
}

/// Checks a display name: 1 to 32 characters after trimming, no control characters.
///
/// # Errors
/// `auth/invalid_name`.
pub fn check_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_control) {
        return Err(ApiError::InvalidName);
    }
    Ok(name.to_string())
}

/// Hashes a password with argon2id and a random salt (PHC string).
///
/// # Errors
/// `auth/weak_password` for a password outside 8..=128 characters.
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let len = password.chars().count();
    if !(8..=128).contains(&len) {
        return Err(ApiError::WeakPassword);
    }
    hash_password_unchecked(password)
}

fn hash_password_unchecked(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| {
        tracing::error!(error = %e, "password hashing failed");
        ApiError::Internal
    })
}

/// Whether `password` matches a stored PHC hash.
pub fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// Password hashing, bounded: each hash takes a blocking thread and about 19 MiB for ~35 ms, so
/// at most `permits` run at once (twice the cores by default) and the rest wait their turn.
/// Sign-in with an unknown name verifies against a fixed dummy hash, so that the answer takes as
/// long as for a known name and does not tell which names exist.
#[derive(Debug)]
pub struct Passwords {
    permits: tokio::sync::Semaphore,
    dummy: std::sync::OnceLock<String>,
    running: std::sync::atomic::AtomicUsize,
    peak: std::sync::atomic::AtomicUsize,
    verified: std::sync::atomic::AtomicU64,
}

impl Passwords {
    /// At most `permits` hashes at once.
    pub fn new(permits: usize) -> Passwords {
        Passwords {
            permits: tokio::sync::Semaphore::new(permits.max(1)),
            dummy: std::sync::OnceLock::new(),
            running: Default::default(),
            peak: Default::default(),
            verified: Default::default(),
        }
    }

    /// Twice the machine's cores.
    pub fn for_this_machine() -> Passwords {
        Passwords::new(2 * std::thread::available_parallelism().map_or(2, usize::from))
    }

    async fn bounded<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
        use std::sync::atomic::Ordering;
        let _permit = self.permits.acquire().await.map_err(|_| ApiError::Internal)?;
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        let result = tokio::task::spawn_blocking(work).await.map_err(|_| ApiError::Internal);
        self.running.fetch_sub(1, Ordering::SeqCst);
        result
    }

    /// Hashes a new password.
    ///
    /// # Errors
    /// As [`hash_password`].
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.bounded(move || hash_password(&password)).await?
    }

    /// Whether `password` matches `phc`; with no stored hash (an unknown name), the same work is
    /// done against the dummy hash and the answer is no.
    ///
    /// # Errors
    /// `server/internal` if the hashing task fails.
    pub async fn verify(&self, password: String, phc: Option<String>) -> Result<bool, ApiError> {
        let known = phc.is_some();
        let phc = match phc {
            Some(phc) => phc,
            None => self.dummy_hash().await?,
        };
        let matches = self.bounded(move || verify_password(&password, &phc)).await?;
        self.verified.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(known && matches)
    }

    async fn dummy_hash(&self) -> Result<String, ApiError> {
        if let Some(phc) = self.dummy.get() {
            return Ok(phc.clone());
        }
        // A password nobody can send (it is longer than any accepted one).
        let phc = self.bounded(|| hash_password_unchecked(&"dummy".repeat(40))).await??;
        Ok(self.dummy.get_or_init(|| phc).clone())
    }

    /// How many verifications ran (for tests and metrics).
    pub fn verifications(&self) -> u64 {
        self.verified.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The most hashes that ran at once so far.
    pub fn peak(&self) -> usize {
        self.peak.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The bearer token of a request (`Authorization: Bearer <token>`), if any.
pub fn bearer(parts: &Parts) -> Option<String> {
    let value = parts.headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer "))?;
    Some(token.trim().to_string())
}

/// A token unused for this long expires (each use moves the expiry on): 30 days.
pub const TOKEN_IDLE_EXPIRY: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);

/// The account of a token.
///
/// # Errors
/// `auth/invalid_token` if it is unknown, revoked or expired.
///
/// A token found in the store is remembered for [`RECHECK_AFTER`]: a client's requests and
/// sockets then cost no query each (a query reads the token and records its use). Revoking a
/// token forgets it at once on every node (see [`Sessions::revoke`]); what the store alone can
/// change (the 30-day idle expiry) is seen within [`RECHECK_AFTER`], the granularity at which a
/// use is recorded anyway.
pub async fn account_for(state: &AppState, token: &str) -> Result<Account, ApiError> {
    let hash = token_hash(token);
    let sessions = &state.sessions;
    let revocations = match sessions.known(&hash) {
        Ok(account) => return Ok(account),
        Err(revocations) => revocations,
    };
    let account = state.store.account_by_token(&hash, TOKEN_IDLE_EXPIRY).await?.ok_or(ApiError::InvalidToken)?;
    sessions.remember(hash, &account, revocations);
    Ok(account)
}

/// How long a token checked against the store is taken as valid without asking it again.
pub const RECHECK_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// The most tokens remembered (beyond it, the memory starts afresh).
const MAX_REMEMBERED: usize = 100_000;

/// The tokens of open sockets, by hash: signing out cancels the sockets opened with that token.
///
/// Each socket watches its own token, so nothing here is consulted on the action path; opening,
/// closing and revoking cost one map operation each.
#[derive(Debug, Default)]
pub struct Sessions {
    live: Mutex<HashMap<String, Watched>>,
    /// Tokens recently found valid in the store, and how many revocations there have been.
    known: Mutex<Known>,
}

#[derive(Debug, Default)]
struct Known {
    tokens: HashMap<String, (Account, std::time::Instant)>,
    revocations: u64,
}

#[derive(Debug)]
struct Watched {
    revoked: CancellationToken,
    sockets: usize,
}

impl Sessions {
    /// Starts watching a token for one socket, until the returned guard drops.
    ///
    /// Call it before checking the token against the store: a sign-out that commits after the
    /// check then always finds the socket here.
    pub fn watch(self: &Arc<Self>, token_hash: &str) -> SessionWatch {
        let revoked = match self.live.lock() {
            Ok(mut live) => {
                let watched = live
                    .entry(token_hash.to_string())
                    .or_insert_with(|| Watched { revoked: CancellationToken::new(), sockets: 0 });
                watched.sockets += 1;
                watched.revoked.clone()
            }
            Err(_) => CancellationToken::new(),
        };
        SessionWatch { sessions: Arc::clone(self), token_hash: token_hash.to_string(), revoked }
    }

    /// The account of a token found valid in the store less than [`RECHECK_AFTER`] ago; else
    /// the count of revocations so far, for [`Sessions::remember`].
    fn known(&self, token_hash: &str) -> Result<Account, u64> {
        let Ok(known) = self.known.lock() else { return Err(u64::MAX) };
        match known.tokens.get(token_hash) {
            Some((account, checked)) if checked.elapsed() < RECHECK_AFTER => Ok(account.clone()),
            _ => Err(known.revocations),
        }
    }

    /// Remembers a token just found valid in the store, unless a token was revoked since the
    /// check began (`revocations` is the count from [`Sessions::known`] before it): the store may
    /// have answered before that revocation committed.
    fn remember(&self, token_hash: String, account: &Account, revocations: u64) {
        let Ok(mut known) = self.known.lock() else { return };
        if known.revocations != revocations {
            return;
        }
        if known.tokens.len() >= MAX_REMEMBERED {
            known.tokens.clear();
        }
        known.tokens.insert(token_hash, (account.clone(), std::time::Instant::now()));
    }

    /// Remembers a token issued just now (sign-up or sign-in), so that its first requests cost
    /// no query. No revocation can concern it yet: its holder has not received it.
    pub fn issued(&self, token_hash: String, account: &Account) {
        let revocations = match self.known(&token_hash) {
            Ok(_) => return,
            Err(revocations) => revocations,
        };
        self.remember(token_hash, account, revocations);
    }

    /// Tells every socket opened with this token that it was revoked, and forgets that it was
    /// valid.
    pub fn revoke(&self, token_hash: &str) {
        if let Ok(mut known) = self.known.lock() {
            known.tokens.remove(token_hash);
            known.revocations += 1;
        }
        // Cancelled under the lock: a watch that is not cancelled is then always in the map.
        if let Ok(mut live) = self.live.lock() {
            if let Some(watched) = live.remove(token_hash) {
                watched.revoked.cancel();
            }
        }
    }
}

/// One socket's watch on its token (see [`Sessions::watch`]).
#[derive(Debug)]
pub struct SessionWatch {
    sessions: Arc<Sessions>,
    token_hash: String,
    revoked: CancellationToken,
}

impl SessionWatch {
    /// Whether the token was revoked.
    pub fn is_revoked(&self) -> bool {
        self.revoked.is_cancelled()
    }

    /// A token cancelled when the token is revoked.
    pub fn revoked_signal(&self) -> CancellationToken {
        self.revoked.clone()
    }
}

impl Drop for SessionWatch {
    fn drop(&mut self) {
        let Ok(mut live) = self.sessions.live.lock() else { return };
        // A revoked watch's entry is gone already (any entry now belongs to newer sockets).
        if self.revoked.is_cancelled() {
            return;
        }
        if let Some(watched) = live.get_mut(&self.token_hash) {
            watched.sockets = watched.sockets.saturating_sub(1);
            if watched.sockets == 0 {
                live.remove(&self.token_hash);
            }
        }
    }
}

/// The signed-in account of a request; rejects requests without a live token.
#[derive(Clone, Debug)]
pub struct Auth(pub Account);

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(parts).ok_or(ApiError::MissingToken)?;
        account_for(state, &token).await.map(Auth)
    }
}

/// The signed-in account of a request, if it has a token; a bad token is still rejected.
#[derive(Clone, Debug)]
pub struct MaybeAuth(pub Option<Account>);

impl FromRequestParts<AppState> for MaybeAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        match bearer(parts) {
            None => Ok(MaybeAuth(None)),
            Some(token) => account_for(state, &token).await.map(|a| MaybeAuth(Some(a))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_token_is_forgotten_when_revoked_and_a_check_overtaken_by_a_revocation_is_not_kept() {
        let sessions = Sessions::default();
        let ana =
            Account { id: crate::ids::AccountId::random(), name: "Ana".into(), kind: crate::store::AccountKind::Guest };
        let before = sessions.known("t1").expect_err("nothing remembered yet");
        sessions.remember("t1".into(), &ana, before);
        assert_eq!(sessions.known("t1"), Ok(ana.clone()));
        sessions.revoke("t1");
        let after = sessions.known("t1").expect_err("revoked: asked of the store again");
        assert_ne!(after, before);
        // A check that began before a revocation (of any token) is not remembered.
        sessions.remember("t2".into(), &ana, before);
        assert!(sessions.known("t2").is_err());
        sessions.remember("t2".into(), &ana, after);
        assert_eq!(sessions.known("t2"), Ok(ana));
    }

    #[test]
    fn a_password_verifies_only_against_its_own_hash() {
        let phc = hash_password("correct horse").unwrap();
        assert!(phc.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &phc));
        assert!(!verify_password("wrong horse", &phc));
        assert_eq!(hash_password("short"), Err(ApiError::WeakPassword));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn hashing_runs_at_most_its_permits_at_once_and_unknown_names_cost_a_verification() {
        let passwords = Arc::new(Passwords::new(2));
        let tasks: Vec<_> = (0..6)
            .map(|i| {
                let passwords = Arc::clone(&passwords);
                tokio::spawn(async move { passwords.hash(format!("password {i}")).await })
            })
            .collect();
        for task in tasks {
            assert!(task.await.unwrap().is_ok());
        }
        assert!(passwords.peak() <= 2, "at most 2 at once, saw {}", passwords.peak());
        assert_eq!(passwords.verify("password 1".into(), None).await, Ok(false));
        assert_eq!(passwords.verifications(), 1, "an unknown name is verified against the dummy hash");
        let phc = passwords.hash("password 1".into()).await.unwrap();
        assert_eq!(passwords.verify("password 1".into(), Some(phc)).await, Ok(true));
    }

    #[test]
    fn tokens_are_random_and_stored_only_as_their_hash() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }

    #[test]
    fn revoking_a_token_reaches_its_sockets_only_and_closed_sockets_are_forgotten() {
        let sessions = Arc::new(Sessions::default());
        let (a1, a2, b) = (sessions.watch("a"), sessions.watch("a"), sessions.watch("b"));
        sessions.revoke("a");
        assert!(a1.revoked.is_cancelled() && a2.revoked.is_cancelled());
        assert!(!b.revoked.is_cancelled(), "another token's socket is untouched");
        let a3 = sessions.watch("a");
        drop((a1, a2));
        assert_eq!(sessions.live.lock().unwrap().get("a").map(|w| w.sockets), Some(1), "a newer socket is kept");
        drop((a3, b));
        assert!(sessions.live.lock().unwrap().is_empty());
    }

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(check_name("  Ada ").unwrap(), "Ada");
        assert_eq!(check_name("   "), Err(ApiError::InvalidName));
        assert_eq!(check_name("a\u{7}"), Err(ApiError::InvalidName));
    }
}
