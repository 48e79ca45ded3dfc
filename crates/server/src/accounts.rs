//! Accounts: password hashing (argon2id), bearer tokens (random; only their SHA-256 is stored),
//! invite codes, and the extractors that turn a request's token into an [`Account`].

use crate::error::ApiError;
use crate::http::AppState;
use crate::store::Account;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use rand_core::{OsRng, RngCore};
use sha2::{Digest, Sha256};

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

/// The bearer token of a request (`Authorization: Bearer <token>`), if any.
pub fn bearer(parts: &Parts) -> Option<String> {
    let value = parts.headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer "))?;
    Some(token.trim().to_string())
}

/// The account of a token.
///
/// # Errors
/// `auth/invalid_token` if it is unknown or revoked.
pub async fn account_for(state: &AppState, token: &str) -> Result<Account, ApiError> {
    state.store.account_by_token(&token_hash(token)).await?.ok_or(ApiError::InvalidToken)
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
    fn a_password_verifies_only_against_its_own_hash() {
        let phc = hash_password("correct horse").unwrap();
        assert!(phc.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &phc));
        assert!(!verify_password("wrong horse", &phc));
        assert_eq!(hash_password("short"), Err(ApiError::WeakPassword));
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
    fn names_are_trimmed_and_checked() {
        assert_eq!(check_name("  Ada ").unwrap(), "Ada");
        assert_eq!(check_name("   "), Err(ApiError::InvalidName));
        assert_eq!(check_name("a\u{7}"), Err(ApiError::InvalidName));
    }
}
