//! A player's side of a game over the socket: its reconstructed view (snapshot + patches).

use super::Ws;
use serde_json::{json, Value};

/// One subscriber's picture of a game.
pub struct Seen {
    /// Its socket.
    pub ws: Ws,
    /// The game.
    pub game: String,
    /// Its seat (None: spectator).
    pub seat: Option<u64>,
    /// The version its view is at.
    pub version: u64,
    /// Its view, rebuilt from the snapshot and every patch since.
    pub view: Value,
    /// Its view at each version since it subscribed (index = version).
    pub views: Vec<Option<Value>>,
    /// The seats the game waits for.
    pub to_act: Vec<u64>,
    /// Its legal actions.
    pub legal: Vec<Value>,
    /// Every event it received.
    pub events: Vec<Value>,
    /// The outcome once over.
    pub outcome: Option<Value>,
    /// The seed, once revealed.
    pub seed: Option<String>,
    /// The commitment from the snapshot.
    pub commitment: String,
    /// Acks received (versions).
    pub acks: Vec<u64>,
    /// Errors received.
    pub errors: Vec<Value>,
    /// The type and version of every message received, in order.
    pub received: Vec<(String, u64)>,
}

impl Seen {
    /// Subscribes `ws` to `game` and reads its snapshot.
    pub async fn subscribe(mut ws: Ws, game: &str, code: Option<&str>) -> Seen {
        ws.send(json!({"type": "subscribe", "game": game, "code": code})).await;
        let snapshot = ws.recv_until(|m| m["type"] == "snapshot" || m["type"] == "error").await;
        assert_eq!(snapshot["type"], "snapshot", "subscribing gives a snapshot: {snapshot}");
        let mut seen = Seen::new(ws, game);
        seen.absorb(snapshot);
        seen
    }

    /// A picture of `game` with nothing in it yet, reading `ws` (the caller subscribes).
    pub fn new(ws: Ws, game: &str) -> Seen {
        Seen {
            ws,
            game: game.to_string(),
            seat: None,
            version: 0,
            view: Value::Null,
            views: Vec::new(),
            to_act: Vec::new(),
            legal: Vec::new(),
            events: Vec::new(),
            outcome: None,
            seed: None,
            commitment: String::new(),
            acks: Vec::new(),
            errors: Vec::new(),
            received: Vec::new(),
        }
    }

    /// Takes in one server message.
    pub fn absorb(&mut self, msg: Value) {
        self.received
            .push((msg["type"].as_str().unwrap_or_default().to_string(), msg["version"].as_u64().unwrap_or(0)));
        match msg["type"].as_str() {
            Some("snapshot") => {
                self.seat = msg["seat"].as_u64();
                self.version = msg["version"].as_u64().expect("version");
                self.view = msg["view"].clone();
                self.commitment = msg["seed_commitment"].as_str().unwrap_or_default().to_string();
                self.record_state(&msg);
            }
            Some("patch") => {
                let version = msg["version"].as_u64().expect("version");
                assert_eq!(version, self.version + 1, "patches arrive in order, one per version: {msg}");
                let patch: json_patch::Patch = serde_json::from_value(msg["patch"].clone()).expect("an RFC 6902 patch");
                json_patch::patch(&mut self.view, &patch).expect("the patch applies to the view before it");
                self.version = version;
                self.events.extend(msg["events"].as_array().cloned().unwrap_or_default());
                self.record_state(&msg);
            }
            Some("ack") => self.acks.push(msg["version"].as_u64().expect("version")),
            Some("error") => self.errors.push(msg),
            _ => {}
        }
    }

    fn record_state(&mut self, msg: &Value) {
        self.to_act =
            msg["to_act"].as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default();
        self.legal = msg["legal_actions"].as_array().cloned().unwrap_or_default();
        if !msg["outcome"].is_null() {
            self.outcome = Some(msg["outcome"].clone());
        }
        if let Some(seed) = msg["seed"].as_str() {
            self.seed = Some(seed.to_string());
        }
        let v = self.version as usize;
        if self.views.len() <= v {
            self.views.resize(v + 1, None);
        }
        self.views[v] = Some(self.view.clone());
    }

    /// Reads messages until the view reaches `version`.
    pub async fn catch_up(&mut self, version: u64) {
        while self.version < version {
            let msg = self.ws.recv().await;
            self.absorb(msg);
        }
    }

    /// Sends an action and reads until its ack or error; returns the ack's version or the error.
    pub async fn act(&mut self, action: Value, version: u64) -> Result<u64, Value> {
        self.ws
            .send(json!({"type": "action", "game": self.game, "version": version, "action": action, "req": 7}))
            .await;
        loop {
            let msg = self.ws.recv().await;
            let kind = msg["type"].as_str().unwrap_or_default().to_string();
            let is_answer = msg["req"] == 7 && (kind == "ack" || kind == "error");
            self.absorb(msg.clone());
            if is_answer {
                return if kind == "ack" { Ok(msg["version"].as_u64().unwrap_or_default()) } else { Err(msg) };
            }
        }
    }

    /// Whether the game waits for this subscriber's seat.
    pub fn to_move(&self) -> bool {
        self.seat.is_some_and(|s| self.to_act.contains(&s)) && !self.legal.is_empty()
    }
}
