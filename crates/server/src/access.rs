//! Who may see or act in a game: the one rule the HTTP routes and the socket both ask.
//!
//! A seat's player sees that seat's view and may act for it; anyone else watches as a spectator
//! when the game is public, when they give its invite code, or when they are a member of the
//! lobby it came from, unless its host removed them. A bot's account never counts as a player
//! (bots act through the table).

use crate::error::ApiError;
use crate::ids::{AccountId, LobbyId};
use crate::lobby::registry::Lobbies;
use crate::lobby::Standing;
use game_core::{Seat, Viewer};

/// The facts about a game that decide access, borrowed from a live table or a stored record.
#[derive(Clone, Copy, Debug)]
pub struct GameAccess<'a> {
    /// The account in each seat.
    pub accounts: &'a [AccountId],
    /// Which seats bots play.
    pub bots: &'a [bool],
    /// Whether anyone may watch.
    pub public: bool,
    /// The code that lets someone watch a private game.
    pub invite_code: Option<&'a str>,
    /// The lobby the game came from, whose members may watch.
    pub lobby: Option<&'a LobbyId>,
}

impl GameAccess<'_> {
    /// The seat `account` plays (never a bot's seat).
    pub fn seat_of(&self, account: &AccountId) -> Option<Seat> {
        self.accounts.iter().zip(self.bots).position(|(a, bot)| a == account && !bot).map(|i| Seat(i as u8))
    }

    /// The seat an account may act for.
    ///
    /// # Errors
    /// `auth/missing_token` without an account, `game/not_a_player` for an account with no seat.
    pub fn player(&self, account: Option<&AccountId>) -> Result<Seat, ApiError> {
        let account = account.ok_or(ApiError::MissingToken)?;
        self.seat_of(account).ok_or(ApiError::NotAPlayer)
    }

    /// As which viewer `account` (anonymous: `None`), having given `code`, may see the game.
    ///
    /// # Errors
    /// `lobby/invite_required` when it may not see it at all.
    pub async fn viewer(
        &self,
        lobbies: &Lobbies,
        account: Option<&AccountId>,
        code: Option<&str>,
    ) -> Result<Viewer, ApiError> {
        if let Some(seat) = account.and_then(|a| self.seat_of(a)) {
            return Ok(Viewer::Seat(seat));
        }
        // A game from a lobby follows the lobby: its members watch, its current invite code
        // admits (a kick changes it), and a removed account does not watch even with a code.
        if let Some(lobby) = self.lobby {
            match lobbies.standing(lobby, account, code).await {
                Some(Standing::Member | Standing::HasCode) => return Ok(Viewer::Spectator),
                Some(Standing::Kicked) => return Err(ApiError::Kicked),
                Some(Standing::Stranger) if self.public => return Ok(Viewer::Spectator),
                Some(Standing::Stranger) => return Err(ApiError::InviteRequired),
                None => {}
            }
        }
        if self.public || (code.is_some() && code == self.invite_code) {
            return Ok(Viewer::Spectator);
        }
        Err(ApiError::InviteRequired)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_seat_is_nobody_s_to_play_and_a_person_plays_only_their_own() {
        let (ana, bot) = (AccountId::random(), AccountId::random());
        let accounts = [ana.clone(), bot.clone()];
        let access =
            GameAccess { accounts: &accounts, bots: &[false, true], public: false, invite_code: None, lobby: None };
        assert_eq!(access.seat_of(&ana), Some(Seat(0)));
        assert_eq!(access.seat_of(&bot), None);
        assert_eq!(access.player(None), Err(ApiError::MissingToken));
        assert_eq!(access.player(Some(&bot)), Err(ApiError::NotAPlayer));
    }
}
