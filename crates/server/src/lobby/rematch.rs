//! "Play again": a new lobby for a finished game with the same game, options and seats. Each
//! former player is invited and accepts or declines; bots come along at once; when every person
//! has answered, those who accepted are seated where they sat.

use super::{Lobby, Member, SeatHolder};
use crate::error::ApiError;
use crate::ids::{AccountId, GameId};
use crate::store::Account;
use serde::{Deserialize, Serialize};

/// Why an answer to a rematch was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RematchError {
    /// The account did not play the game this lobby is a rematch of.
    #[error("you were not invited to this rematch")]
    NotInvited,
}

impl RematchError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            RematchError::NotInvited => "rematch/not_invited",
        }
    }
}

impl From<RematchError> for ApiError {
    fn from(e: RematchError) -> Self {
        match e {
            RematchError::NotInvited => ApiError::NotInvited,
        }
    }
}

/// A former player asked to play again.
///
/// In key order, as [`super::Lobby`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitee {
    /// Null until they answer; then whether they accepted.
    pub accepted: Option<bool>,
    /// Their account.
    pub account: AccountId,
    /// Their name.
    pub name: String,
    /// The lobby seat kept for them (their seat in the finished game).
    pub seat: usize,
}

/// The rematch a lobby was opened for.
///
/// In key order, as [`super::Lobby`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// Every person who played it (the one who asked has accepted).
    pub invited: Vec<Invitee>,
    /// The finished game.
    pub of: GameId,
}

impl Rematch {
    /// Whether every invited person has answered.
    pub fn settled(&self) -> bool {
        self.invited.iter().all(|i| i.accepted.is_some())
    }
}

impl Lobby {
    /// Whether `account` is invited to this lobby's rematch (and may look at it without the code).
    pub fn is_invited(&self, account: &AccountId) -> bool {
        self.rematch.as_ref().is_some_and(|r| r.invited.iter().any(|i| &i.account == account))
    }

    /// An invited person answers. Accepting makes them a member; once everyone has answered,
    /// those who accepted take the seats kept for them. Answering again (before that) changes
    /// the answer.
    ///
    /// # Errors
    /// `rematch/not_invited`, `lobby/kicked`, `lobby/started`.
    pub fn answer_rematch(&mut self, account: &Account, accept: bool) -> Result<(), ApiError> {
        if self.kicked.contains(&account.id) {
            return Err(ApiError::Kicked);
        }
        self.require_open()?;
        let rematch = self.rematch.as_mut().ok_or(RematchError::NotInvited)?;
        if rematch.settled() {
            // Seats are dealt: joining is now as for any lobby.
            return Err(ApiError::LobbyStarted);
        }
        let invitee = rematch.invited.iter_mut().find(|i| i.account == account.id).ok_or(RematchError::NotInvited)?;
        invitee.accepted = Some(accept);
        if accept && !self.is_member(&account.id) {
            self.members.push(Member { account: account.id.clone(), name: account.name.clone() });
        }
        if !accept && account.id != self.host {
            self.members.retain(|m| m.account != account.id);
        }
        self.seat_the_accepted();
        Ok(())
    }

    /// Once everyone has answered: seats those who accepted (and are still members) in their seats.
    pub(crate) fn seat_the_accepted(&mut self) {
        let Some(rematch) = &self.rematch else { return };
        if !rematch.settled() {
            return;
        }
        for invitee in rematch.invited.iter().filter(|i| i.accepted == Some(true)) {
            let member = self.members.iter().any(|m| m.account == invitee.account);
            let seated = self.seats.iter().flatten().any(|s| s.account == invitee.account);
            if member && !seated && self.seats.get(invitee.seat).is_some_and(Option::is_none) {
                self.seats[invitee.seat] =
                    Some(SeatHolder { account: invitee.account.clone(), name: invitee.name.clone(), bot: false });
            }
        }
    }
}
