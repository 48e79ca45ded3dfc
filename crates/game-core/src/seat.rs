//! Seats, viewers, and containers indexed by seat.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Index, IndexMut};

/// A player's place at the table, numbered from 0 in clockwise order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index, for indexing vectors.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat `steps` places clockwise from this one at a table of `players`.
    pub fn next(self, players: usize, steps: usize) -> Seat {
        Seat(((self.index() + steps) % players.max(1)) as u8)
    }

    /// All seats of a table of `players`, in clockwise order from seat 0.
    pub fn all(players: usize) -> impl Iterator<Item = Seat> {
        (0..players).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

/// Who is looking at a game: one seat, or a spectator who sees only public information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Anyone else: sees only what is public.
    Spectator,
}

impl Viewer {
    /// Every viewer of a table of `players`: each seat, then the spectator.
    pub fn all(players: usize) -> Vec<Viewer> {
        Seat::all(players).map(Viewer::Seat).chain([Viewer::Spectator]).collect()
    }

    /// Whether this viewer is the player in `seat`.
    pub fn is(self, seat: Seat) -> bool {
        self == Viewer::Seat(seat)
    }
}

/// One value per seat, indexed by [`Seat`].
#[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct BySeat<T>(pub Vec<T>);

// By hand rather than derived: the derive has no `clone_from`, and its default drops the old
// values and clones anew. Memos that keep a copy of a per-seat list (a hand, a tableau per seat)
// refresh it at every action; `Vec::clone_from` reuses their buffers, element by element.
impl<T: Clone> Clone for BySeat<T> {
    fn clone(&self) -> Self {
        BySeat(self.0.clone())
    }

    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

impl<T> BySeat<T> {
    /// A value for each of `players` seats, made by `f`.
    pub fn from_fn(players: usize, mut f: impl FnMut(Seat) -> T) -> Self {
        BySeat(Seat::all(players).map(&mut f).collect())
    }

    /// The number of seats.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no seats.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each seat with its value.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }

    /// Each seat with its value, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Seat, &mut T)> {
        self.0.iter_mut().enumerate().map(|(i, v)| (Seat(i as u8), v))
    }

    /// Maps every value, keeping seats.
    pub fn map<U>(&self, mut f: impl FnMut(Seat, &T) -> U) -> BySeat<U> {
        BySeat(self.iter().map(|(s, v)| f(s, v)).collect())
    }

    /// The value for `seat`, if that seat exists.
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

/// Display names of the seats, used to render events as readable log lines.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatNames(pub Vec<String>);

impl SeatNames {
    /// Generic names ("P0", "P1", ...) for a table of `players`.
    pub fn generic(players: usize) -> Self {
        SeatNames(Seat::all(players).map(|s| s.to_string()).collect())
    }

    /// The name of `seat`, or its generic name if none is known. Borrowed when known: events
    /// are described on every action, and the name is only written into their text.
    pub fn name(&self, seat: Seat) -> std::borrow::Cow<'_, str> {
        match self.0.get(seat.index()) {
            Some(name) => std::borrow::Cow::Borrowed(name),
            None => std::borrow::Cow::Owned(seat.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BySeat;

    #[test]
    fn clone_from_gives_the_source_whatever_the_sizes() {
        let lists = [
            BySeat(vec![vec![1u8, 2], vec![], vec![3]]),
            BySeat(vec![vec![4u8]]),
            BySeat(vec![]),
            BySeat(vec![vec![5u8, 6, 7], vec![8], vec![9, 10], vec![11, 12, 13, 14]]),
        ];
        for from in &lists {
            for source in &lists {
                let mut copy = from.clone();
                copy.clone_from(source);
                assert_eq!(&copy, source);
            }
        }
    }
}
