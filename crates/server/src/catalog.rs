//! The catalog: every game this build hosts, by id. Adding a game to Chapterhouse means adding
//! its descriptor here; nothing else in the server names a game.

use game_core::{Descriptor, GameDescriptor, GameInfo};

/// The languages every engine ships rules texts in; the first is the default.
pub const TEXT_LANGUAGES: &[&str] = &["en", "de"];

/// The games this build hosts.
pub struct Catalog {
    games: Vec<Box<dyn GameDescriptor>>,
}

impl Catalog {
    /// Every game of this build.
    pub fn standard() -> Catalog {
        Catalog {
            games: vec![
                Box::new(Descriptor::<templars_journey::TemplarsJourney>::new(templars_journey::VERSION)),
                Box::new(Descriptor::<secret_treasures::SecretTreasures>::new(secret_treasures::VERSION)),
                Box::new(Descriptor::<knights_templar::KnightsTemplar>::new(knights_templar::VERSION)),
                Box::new(Descriptor::<richard_the_lionheart::RichardTheLionheart>::new(richard_the_lionheart::VERSION)),
            ],
        }
    }

    /// A catalog of exactly these games (tests host games of their own this way).
    pub fn new(games: Vec<Box<dyn GameDescriptor>>) -> Catalog {
        Catalog { games }
    }

    /// The game with catalog id `id`.
    pub fn get(&self, id: &str) -> Option<&dyn GameDescriptor> {
        self.games.iter().find(|g| g.info().id == id).map(|g| g.as_ref())
    }

    /// What the catalog says about every game, in catalog order.
    pub fn infos(&self) -> Vec<GameInfo> {
        self.games.iter().map(|g| g.info()).collect()
    }

    /// The rules texts (JSON) of the game with catalog id `id` in language `lang` (one of
    /// [`TEXT_LANGUAGES`]): the catalogs each engine crate ships. Kept beside the list of games
    /// above, so that adding a game adds its texts.
    pub fn texts(&self, id: &str, lang: &str) -> Option<&'static str> {
        let (en, de) = match id {
            "templars-journey" => (templars_journey::TEXTS_EN, templars_journey::TEXTS_DE),
            "secret-treasures" => (secret_treasures::TEXTS_EN, secret_treasures::TEXTS_DE),
            "knights-templar" => (knights_templar::TEXTS_EN, knights_templar::TEXTS_DE),
            "richard-the-lionheart" => (richard_the_lionheart::TEXTS_EN, richard_the_lionheart::TEXTS_DE),
            _ => return None,
        };
        self.get(id)?;
        match lang {
            "en" => Some(en),
            "de" => Some(de),
            _ => None,
        }
    }

    /// The ids of every game, for error messages.
    pub fn ids(&self) -> Vec<String> {
        self.games.iter().map(|g| g.info().id).collect()
    }
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.ids()).finish()
    }
}

impl Default for Catalog {
    fn default() -> Self {
        Catalog::standard()
    }
}
