//! Game subscriptions and actions on a socket: who may watch (see [`crate::access`]), the table
//! to ask, and the action handed to it (the table itself answers, on the socket's queue).

use super::Connection;
use crate::error::ApiError;
use crate::ids::GameId;
use crate::lobby::registry::Kick;
use crate::table::{Command, TableHandle};
use std::borrow::Cow;

impl Connection {
    /// The handle this socket holds for `game`, borrowed (a clone of a handle takes the lock of
    /// its cancellation token, twice with its drop), or the table's, loaded if need be.
    async fn table(&self, game: &GameId) -> Result<Cow<'_, TableHandle>, ApiError> {
        match self.games.get(game) {
            Some(handle) => Ok(Cow::Borrowed(handle)),
            None => self.state.tables.get_or_load(game).await.map(Cow::Owned),
        }
    }

    pub(super) async fn subscribe(
        &mut self,
        game: &GameId,
        last_version: Option<u64>,
        code: Option<String>,
    ) -> Result<(), ApiError> {
        if !self.games.contains_key(game) {
            self.room_for_one_more()?;
        }
        // A table that stopped (a finished game left idle) is loaded again once.
        for _ in 0..2 {
            let table = self.table(game).await?.into_owned();
            let account = self.account.as_ref().map(|a| &a.id);
            let viewer = table.info.access().viewer(&self.state.lobbies, account, code.as_deref()).await?;
            let command = Command::Subscribe { conn: self.id, viewer, last_version, out: self.out.clone() };
            if table.send(command).await {
                if self.games.insert(game.clone(), table).is_none() {
                    crate::metrics::subscriptions(1.0);
                }
                return Ok(());
            }
            self.forget(game);
        }
        Err(self.stopped())
    }

    /// Drops a subscription whose table has stopped.
    fn forget(&mut self, game: &GameId) {
        if self.games.remove(game).is_some() {
            crate::metrics::subscriptions(-1.0);
        }
    }

    pub(super) async fn unsubscribe(&mut self, game: &GameId) {
        if let Some(table) = self.games.remove(game) {
            crate::metrics::subscriptions(-1.0);
            let (done, gone) = tokio::sync::oneshot::channel();
            if table.send(Command::Unsubscribe { conn: self.id, done: Some(done) }).await {
                // Whatever the table queued to this socket before is already queued; nothing
                // comes after. A stopped table drops `done`, which ends the wait too; a table
                // stuck for seconds (its store) does not hold the socket longer than this.
                let _ = tokio::time::timeout(std::time::Duration::from_secs(5), gone).await;
            }
        }
    }

    /// Ends every game subscription (the socket is closing).
    pub(super) async fn unsubscribe_all(&mut self) {
        for (_, table) in self.games.drain() {
            crate::metrics::subscriptions(-1.0);
            table.send(Command::Unsubscribe { conn: self.id, done: None }).await;
        }
    }

    /// The host removed someone from a lobby: if it is this socket's account, it stops watching
    /// that lobby's game (it may not watch it again, see [`crate::access`]).
    pub(super) async fn kicked(&mut self, kick: Kick) {
        let ours = self.account.as_ref().is_some_and(|a| a.id == kick.account);
        let Some(game) = kick.game.filter(|_| ours) else { return };
        if self.games.contains_key(&game) {
            self.unsubscribe(&game).await;
            self.fail(&ApiError::Kicked, None, Some(&game));
        }
    }

    fn stopped(&self) -> ApiError {
        if self.state.shutdown.is_cancelled() {
            ApiError::ShuttingDown
        } else {
            ApiError::Internal
        }
    }

    pub(super) async fn action(
        &mut self,
        game: &GameId,
        version: u64,
        mut action: Box<serde_json::value::RawValue>,
        req: Option<u64>,
    ) -> Result<(), ApiError> {
        if self.account.is_none() {
            return Err(ApiError::MissingToken);
        }
        for _ in 0..2 {
            let table = self.table(game).await?;
            let seat = table.info.access().player(self.account.as_ref().map(|a| &a.id))?;
            // The table answers on this socket's queue itself, right behind the mover's patch.
            let command = Command::Action { conn: self.id, seat, version, action, req, out: self.out.clone() };
            // A table that stopped (a finished game left idle) hands the action back: it goes
            // to the one loaded again.
            let Err(back) = table.send_or_return(command).await else { return Ok(()) };
            drop(table);
            let Command::Action { action: unsent, .. } = back else { break };
            action = unsent;
            self.forget(game);
        }
        Err(self.stopped())
    }
}
