//! Lobbies: a host, members, seats (people or bots), options; the rules of changing them.
//!
//! [`Lobby`] holds the rules and is plain data (its JSON is what the store keeps);
//! [`registry::Lobbies`] keeps live lobbies, persists every change and tells subscribers.

pub mod registry;
pub mod rematch;

use crate::clock::TurnLimit;
use crate::error::ApiError;
use crate::ids::{AccountId, GameId, LobbyId};
use crate::store::{Account, LobbyRecord};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Open for seating, or started (seats and options fixed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LobbyStatus {
    /// Taking seats.
    Open,
    /// Its game has started.
    Started,
}

/// Where an account stands with a lobby (for watching its game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// A member.
    Member,
    /// Removed by the host.
    Kicked,
    /// Gave the lobby's current invite code.
    HasCode,
    /// None of these.
    Stranger,
}

/// Someone in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Their account.
    pub account: AccountId,
    /// Their display name.
    pub name: String,
}

/// Who holds a seat.
///
/// In key order, as [`Lobby`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatHolder {
    /// The account (a bot's own account for bots).
    pub account: AccountId,
    /// Whether a bot plays it.
    pub bot: bool,
    /// Display name.
    pub name: String,
}

/// A lobby.
///
/// Its fields are declared in key order, so that its JSON, written straight from it, is what
/// a `Value` of it writes (the text the store keeps; see [`Lobby::record`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lobby {
    /// The catalog id of the game.
    pub game: String,
    /// The game started from this lobby.
    pub game_id: Option<GameId>,
    /// The host.
    pub host: AccountId,
    /// Its id.
    pub id: LobbyId,
    /// The code that lets someone join (needed only for private lobbies).
    pub invite_code: String,
    /// Accounts the host removed; they cannot join again.
    pub kicked: Vec<AccountId>,
    /// Everyone who joined, host first.
    pub members: Vec<Member>,
    /// The options, normalised by the catalog.
    pub options: Value,
    /// Listed for everyone, or joined by invite code only.
    pub public: bool,
    /// Whether its game counts for ratings (only when every player is a registered account; see
    /// [`crate::ratings`]). Absent from lobbies stored before ratings existed: unrated.
    #[serde(default)]
    pub rated: bool,
    /// The finished game this lobby offers to play again, and who answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<rematch::Rematch>,
    /// One entry per possible seat (the game's maximum); `None` is free.
    pub seats: Vec<Option<SeatHolder>>,
    /// Open or started.
    pub status: LobbyStatus,
    /// Per-turn time limit, after which a bot acts for an absent player.
    pub turn_seconds: Option<TurnLimit>,
}

/// A lobby as clients see it (the kicked list left out; the invite code only for private lobbies).
#[derive(Clone, Debug, Serialize)]
pub struct LobbyView<'a> {
    id: &'a LobbyId,
    game: &'a str,
    options: &'a Value,
    public: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    invite_code: Option<&'a str>,
    host: &'a AccountId,
    members: &'a [Member],
    seats: &'a [Option<SeatHolder>],
    status: LobbyStatus,
    game_id: &'a Option<GameId>,
    turn_seconds: Option<TurnLimit>,
    rated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    rematch: &'a Option<rematch::Rematch>,
}

impl Lobby {
    /// A new open lobby with `host` as its only member, seated in seat 0.
    pub fn new(
        game: String,
        options: Value,
        max_players: usize,
        public: bool,
        turn_seconds: Option<TurnLimit>,
        host: &Account,
    ) -> Lobby {
        let mut seats = vec![None; max_players];
        seats[0] = Some(SeatHolder { account: host.id.clone(), name: host.name.clone(), bot: false });
        Lobby {
            id: LobbyId::random(),
            game,
            options,
            public,
            invite_code: crate::accounts::invite_code(),
            host: host.id.clone(),
            members: vec![Member { account: host.id.clone(), name: host.name.clone() }],
            seats,
            kicked: Vec::new(),
            status: LobbyStatus::Open,
            game_id: None,
            turn_seconds,
            rated: false,
            rematch: None,
        }
    }

    /// The client view.
    pub fn view(&self, for_members: bool) -> LobbyView<'_> {
        LobbyView {
            id: &self.id,
            game: &self.game,
            options: &self.options,
            public: self.public,
            invite_code: (!self.public && for_members).then_some(self.invite_code.as_str()),
            host: &self.host,
            members: &self.members,
            seats: &self.seats,
            status: self.status,
            game_id: &self.game_id,
            turn_seconds: self.turn_seconds,
            rated: self.rated,
            rematch: &self.rematch,
        }
    }

    /// The store's record of this lobby.
    pub fn record(&self) -> LobbyRecord {
        LobbyRecord {
            id: self.id.clone(),
            game: self.game.clone(),
            public: self.public,
            status: self.status,
            host: self.host.clone(),
            // Written straight from the lobby: the same text as its `Value`'s, as its fields and
            // those of its parts are in key order (`a_lobby_is_stored_as_its_value_writes_it`).
            state: serde_json::to_string(self).unwrap_or_else(|_| "null".into()),
        }
    }

    /// Where `account` (anonymous: `None`), having given `code`, stands with this lobby.
    pub fn standing(&self, account: Option<&AccountId>, code: Option<&str>) -> Standing {
        if account.is_some_and(|a| self.kicked.contains(a)) {
            Standing::Kicked
        } else if account.is_some_and(|a| self.is_member(a)) {
            Standing::Member
        } else if code == Some(self.invite_code.as_str()) {
            Standing::HasCode
        } else {
            Standing::Stranger
        }
    }

    /// Whether `account` joined.
    pub fn is_member(&self, account: &AccountId) -> bool {
        self.members.iter().any(|m| &m.account == account)
    }

    /// Whether `account` may look at this lobby (and watch its game): public, a member, or holds the code.
    pub fn may_see(&self, account: Option<&AccountId>, code: Option<&str>) -> bool {
        self.public
            || account.is_some_and(|a| self.is_member(a) || self.is_invited(a))
            || code == Some(self.invite_code.as_str())
    }

    /// Whether a socket of `account` (anonymous: `None`) that gave `code` may follow this lobby's
    /// changes: as [`Lobby::may_see`], but never an account the host removed.
    ///
    /// # Errors
    /// `lobby/kicked`, `lobby/invite_required`.
    pub fn may_follow(&self, account: Option<&AccountId>, code: Option<&str>) -> Result<(), ApiError> {
        if account.is_some_and(|a| self.kicked.contains(a)) {
            return Err(ApiError::Kicked);
        }
        if !self.may_see(account, code) {
            return Err(ApiError::InviteRequired);
        }
        Ok(())
    }

    fn seat_of(&self, account: &AccountId) -> Option<usize> {
        self.seats.iter().position(|s| s.as_ref().is_some_and(|h| &h.account == account))
    }

    pub(crate) fn require_open(&self) -> Result<(), ApiError> {
        match self.status {
            LobbyStatus::Open => Ok(()),
            LobbyStatus::Started => Err(ApiError::LobbyStarted),
        }
    }

    fn require_host(&self, account: &AccountId) -> Result<(), ApiError> {
        if &self.host == account {
            Ok(())
        } else {
            Err(ApiError::NotHost)
        }
    }

    fn free_seat(&self, seat: usize) -> Result<(), ApiError> {
        match self.seats.get(seat) {
            None => Err(ApiError::NoSuchSeat(seat)),
            Some(Some(_)) => Err(ApiError::SeatTaken(seat)),
            Some(None) => Ok(()),
        }
    }

    /// `account` joins (a private lobby needs its invite code), if the lobby has fewer than
    /// `max_members`. Joining again is a no-op.
    ///
    /// # Errors
    /// `lobby/kicked`, `lobby/invite_required`, `lobby/full`.
    pub fn join(&mut self, account: &Account, code: Option<&str>, max_members: usize) -> Result<(), ApiError> {
        if self.kicked.contains(&account.id) {
            return Err(ApiError::Kicked);
        }
        if self.is_member(&account.id) {
            return Ok(());
        }
        if !self.public && code != Some(self.invite_code.as_str()) {
            return Err(ApiError::InviteRequired);
        }
        if self.members.len() >= max_members {
            return Err(ApiError::LobbyFull { limit: max_members });
        }
        self.members.push(Member { account: account.id.clone(), name: account.name.clone() });
        Ok(())
    }

    /// A member takes a free seat, leaving the seat they held.
    ///
    /// # Errors
    /// `lobby/not_member`, `lobby/started`, `lobby/no_such_seat`, `lobby/seat_taken`.
    pub fn take_seat(&mut self, account: &Account, seat: usize) -> Result<(), ApiError> {
        if !self.is_member(&account.id) {
            return Err(ApiError::NotMember);
        }
        self.require_open()?;
        if self.seat_of(&account.id) == Some(seat) {
            return Ok(());
        }
        self.free_seat(seat)?;
        if let Some(old) = self.seat_of(&account.id) {
            self.seats[old] = None;
        }
        self.seats[seat] = Some(SeatHolder { account: account.id.clone(), name: account.name.clone(), bot: false });
        Ok(())
    }

    /// A member gives up their seat.
    ///
    /// # Errors
    /// `lobby/started`, `lobby/not_seated`.
    pub fn leave_seat(&mut self, account: &AccountId) -> Result<(), ApiError> {
        self.require_open()?;
        let seat = self.seat_of(account).ok_or(ApiError::NotSeated)?;
        self.seats[seat] = None;
        Ok(())
    }

    /// A member leaves the lobby (and its seat, while open). A leaving host hands the lobby to the
    /// next member.
    ///
    /// # Errors
    /// `lobby/not_member`.
    pub fn leave(&mut self, account: &AccountId) -> Result<(), ApiError> {
        if !self.is_member(account) {
            return Err(ApiError::NotMember);
        }
        self.members.retain(|m| &m.account != account);
        if self.status == LobbyStatus::Open {
            if let Some(seat) = self.seat_of(account) {
                self.seats[seat] = None;
            }
        }
        if &self.host == account {
            if let Some(next) = self.members.first() {
                self.host = next.account.clone();
            }
        }
        Ok(())
    }

    /// The host seats a bot.
    ///
    /// # Errors
    /// `lobby/not_host`, `lobby/started`, `lobby/no_such_seat`, `lobby/seat_taken`.
    pub fn add_bot(&mut self, by: &AccountId, seat: usize, bot: &Account) -> Result<(), ApiError> {
        self.require_host(by)?;
        self.require_open()?;
        self.free_seat(seat)?;
        self.seats[seat] = Some(SeatHolder { account: bot.id.clone(), name: bot.name.clone(), bot: true });
        Ok(())
    }

    /// Checks that the host could seat a bot now (before a bot account is created for it).
    ///
    /// # Errors
    /// As [`Lobby::add_bot`].
    pub fn can_add_bot(&self, by: &AccountId, seat: usize) -> Result<(), ApiError> {
        self.require_host(by)?;
        self.require_open()?;
        self.free_seat(seat)
    }

    /// The host removes a member or a bot; a removed person cannot join again, and the invite
    /// code changes (the remaining members see the new one).
    ///
    /// # Errors
    /// `lobby/not_host`, `lobby/cannot_kick_host`, `lobby/no_such_member`, `lobby/started` (for bots).
    pub fn kick(&mut self, by: &AccountId, target: &AccountId) -> Result<(), ApiError> {
        self.require_host(by)?;
        if target == &self.host {
            return Err(ApiError::CannotKickHost);
        }
        let seat = self.seat_of(target);
        let member = self.is_member(target);
        if seat.is_none() && !member {
            return Err(ApiError::NoSuchMember);
        }
        if seat.is_some() {
            self.require_open()?;
        }
        if let Some(seat) = seat {
            self.seats[seat] = None;
        }
        if member {
            self.members.retain(|m| &m.account != target);
            self.kicked.push(target.clone());
            // The removed person knows the code: a new one keeps them from rejoining as someone else.
            self.invite_code = crate::accounts::invite_code();
        }
        Ok(())
    }

    /// The host changes options (already normalised), visibility or the turn time limit.
    ///
    /// # Errors
    /// `lobby/not_host`, `lobby/started`.
    pub fn configure(
        &mut self,
        by: &AccountId,
        options: Option<Value>,
        public: Option<bool>,
        turn_seconds: Option<Option<TurnLimit>>,
    ) -> Result<(), ApiError> {
        self.require_host(by)?;
        self.require_open()?;
        if let Some(options) = options {
            self.options = options;
        }
        if let Some(public) = public {
            self.public = public;
        }
        if let Some(turn_seconds) = turn_seconds {
            self.turn_seconds = turn_seconds;
        }
        Ok(())
    }

    /// The host makes the game rated or unrated.
    ///
    /// # Errors
    /// `lobby/not_host`, `lobby/started`.
    pub fn set_rated(&mut self, by: &AccountId, rated: bool) -> Result<(), ApiError> {
        self.require_host(by)?;
        self.require_open()?;
        self.rated = rated;
        Ok(())
    }

    /// The host starts: the seated holders, in seat order, become the game's seats.
    ///
    /// # Errors
    /// `lobby/not_host`, `lobby/started`, `lobby/bad_player_count`.
    pub fn seated_for_start(&self, by: &AccountId, min: usize, max: usize) -> Result<Vec<SeatHolder>, ApiError> {
        self.require_host(by)?;
        self.require_open()?;
        let seated: Vec<SeatHolder> = self.seats.iter().flatten().cloned().collect();
        if !(min..=max).contains(&seated.len()) {
            return Err(ApiError::BadPlayerCount { min, max, seated: seated.len() });
        }
        Ok(seated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::AccountKind;

    fn person(name: &str) -> Account {
        Account { id: AccountId::random(), name: name.into(), kind: AccountKind::Guest }
    }

    fn private_lobby(host: &Account) -> Lobby {
        Lobby::new("g".into(), Value::Null, 4, false, None, host)
    }

    /// The store keeps a lobby's JSON written straight from it, which must be the text of its
    /// `Value` (what was stored before): every field, of the lobby and of its parts, set, unset
    /// and with text to escape.
    #[test]
    fn a_lobby_is_stored_as_its_value_writes_it() {
        let host = person("host \"H\" é");
        let mut lobby = Lobby::new(
            "knights-templar".into(),
            serde_json::json!({"zeta": 1, "alpha": [true, null], "mid": {"b": 2, "a": 1.5}}),
            4,
            true,
            Some(TurnLimit::new(60).unwrap()),
            &host,
        );
        let written = |lobby: &Lobby| (lobby.record().state, serde_json::to_value(lobby).unwrap().to_string());
        let (text, value) = written(&lobby);
        assert_eq!(text, value, "a new lobby");
        let guest = person("guest");
        lobby.join(&guest, None, 64).unwrap();
        lobby.kicked.push(AccountId::random());
        lobby.seats[1] = Some(SeatHolder { account: AccountId::random(), name: "Bot 1".into(), bot: true });
        lobby.status = LobbyStatus::Started;
        lobby.game_id = Some(GameId::random());
        lobby.rated = true;
        lobby.rematch = Some(rematch::Rematch {
            of: GameId::random(),
            invited: vec![
                rematch::Invitee { account: host.id.clone(), name: host.name.clone(), seat: 0, accepted: Some(true) },
                rematch::Invitee { account: guest.id.clone(), name: "guest".into(), seat: 1, accepted: None },
            ],
        });
        let (text, value) = written(&lobby);
        assert_eq!(text, value, "every field set");
        assert!(text.contains(r#""rematch":{"invited":[{"accepted":true,"#), "{text}");
    }

    #[test]
    fn a_private_lobby_is_joined_only_with_its_code() {
        let host = person("host");
        let mut lobby = private_lobby(&host);
        let guest = person("guest");
        assert_eq!(lobby.join(&guest, None, 64), Err(ApiError::InviteRequired));
        assert_eq!(lobby.join(&guest, Some("wrong"), 64), Err(ApiError::InviteRequired));
        let code = lobby.invite_code.clone();
        assert_eq!(lobby.join(&guest, Some(&code), 64), Ok(()));
        assert!(lobby.is_member(&guest.id));
    }

    #[test]
    fn a_taken_seat_cannot_be_taken_and_moving_frees_the_old_seat() {
        let host = person("host");
        let mut lobby = private_lobby(&host);
        let guest = person("guest");
        let code = lobby.invite_code.clone();
        lobby.join(&guest, Some(&code), 64).unwrap();
        assert_eq!(lobby.take_seat(&guest, 0), Err(ApiError::SeatTaken(0)));
        assert_eq!(lobby.take_seat(&guest, 9), Err(ApiError::NoSuchSeat(9)));
        lobby.take_seat(&guest, 1).unwrap();
        lobby.take_seat(&guest, 2).unwrap();
        assert!(lobby.seats[1].is_none());
        assert_eq!(lobby.seats[2].as_ref().map(|s| s.name.as_str()), Some("guest"));
    }

    #[test]
    fn only_the_host_kicks_and_a_kicked_member_cannot_come_back() {
        let host = person("host");
        let mut lobby = private_lobby(&host);
        let guest = person("guest");
        let code = lobby.invite_code.clone();
        lobby.join(&guest, Some(&code), 64).unwrap();
        lobby.take_seat(&guest, 1).unwrap();
        assert_eq!(lobby.kick(&guest.id, &host.id), Err(ApiError::NotHost));
        assert_eq!(lobby.kick(&host.id, &host.id), Err(ApiError::CannotKickHost));
        lobby.kick(&host.id, &guest.id).unwrap();
        assert!(lobby.seats[1].is_none());
        assert_eq!(lobby.join(&guest, Some(&code), 64), Err(ApiError::Kicked));
        assert_eq!(lobby.may_follow(Some(&guest.id), Some(&code)), Err(ApiError::Kicked), "not even with the code");
        assert_ne!(lobby.invite_code, code, "the code changed");
        assert_eq!(lobby.may_follow(None, Some(&code)), Err(ApiError::InviteRequired), "the old code is dead");
        assert_eq!(lobby.join(&person("guest again"), Some(&code), 64), Err(ApiError::InviteRequired));
        let new_code = lobby.invite_code.clone();
        assert_eq!(lobby.may_follow(None, Some(&new_code)), Ok(()));
        assert_eq!(lobby.may_follow(Some(&host.id), None), Ok(()));
    }

    #[test]
    fn starting_needs_a_legal_player_count() {
        let host = person("host");
        let mut lobby = private_lobby(&host);
        assert_eq!(
            lobby.seated_for_start(&host.id, 2, 4).map(|s| s.len()),
            Err(ApiError::BadPlayerCount { min: 2, max: 4, seated: 1 })
        );
        lobby.add_bot(&host.id, 3, &person("bot")).unwrap();
        let seated = lobby.seated_for_start(&host.id, 2, 4).unwrap();
        assert_eq!(seated.iter().map(|s| s.bot).collect::<Vec<_>>(), vec![false, true]);
    }
}
