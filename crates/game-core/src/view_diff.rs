//! JSON Patch between two views given as their compact JSON text, without building either view
//! as a `serde_json::Value`.
//!
//! A live table sends every subscriber, per action, the RFC 6902 patch from its previous view to
//! its new one. Building both views as `Value` trees and diffing them costs far more than the
//! engine's own work, yet most of a view does not change from one action to the next. Here the
//! old and new views are compared as text: a sub-tree whose bytes are equal is skipped with one
//! `memcmp`. The patch is written as text too ([`diff_text`]): paths are escaped as they are
//! built, and a value that goes into the patch is copied from the new view's text, its objects'
//! members put in key order; only a float, or text that is not plain JSON, is parsed.
//!
//! The result is exactly what [`json_patch::diff`] gives for the same two documents parsed as
//! `Value`s, down to the bytes `serde_json` writes for it (same operations, same order, same
//! paths, same values, objects with sorted keys): objects are walked in sorted key order (as
//! `serde_json::Map` keeps them), arrays index by index with the same shifting of removals.
//! [`check_view_patches`] asserts this for every viewer at every step of random games.
//!
//! The texts must be compact JSON as `serde_json::to_string` writes it (no whitespace); that is
//! the only input the server gives. Equal bytes mean equal values for such text (serde_json
//! writes a given value one way only); the converse holds for the integers, strings, booleans and
//! nulls views are made of.

use crate::dynamic::GameDescriptor;
use crate::rng::{GameRng, Seed};
use crate::seat::{SeatNames, Viewer};
use json_patch::Patch;
use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::Value;
use std::borrow::Cow;
use std::cell::Cell;
use std::io;
use std::sync::{Arc, OnceLock, Weak};

/// The patch from the view `old` to the view `new`, both compact JSON text.
///
/// Text that is not JSON (which no serialised view is) is diffed as a whole: the patch then
/// replaces the document with `new` parsed leniently (`null` if it does not parse).
pub fn diff_json(old: &str, new: &str) -> Patch {
    diff_texts(&ViewText::new(old.to_owned()), &ViewText::new(new.to_owned()))
}

/// A view's compact JSON text with its structural index: where every string, object and
/// array in it ends. Built in one pass over the text, so that diffing walks into a changed
/// member without rescanning its enclosing containers (without the index, finding where each
/// member ends rescans the text once per nesting level). A table keeps each viewer's current
/// view as a `ViewText`, so each new view text is indexed once and serves two diffs: against
/// the previous view now, and as the previous view at the next action.
#[derive(Clone, Default)]
pub struct ViewText {
    /// The text and its index, written when first asked for if the part was made by
    /// [`ViewText::lazy`].
    body: OnceLock<Body>,
    /// What writes the text of a lazy part.
    write: Option<Arc<dyn Fn() -> ViewText + Send + Sync>>,
    /// The patch to this part from the part it was written after, when its engine worked it
    /// out from its own state (see [`ViewText::derived_from`]).
    derived: Option<Box<Derived>>,
    /// Names this text in a [`DiffMemo`] (see [`fresh_id`]): texts with the same id have the
    /// same bytes (a clone keeps its original's id; a default text is the empty one, id 0).
    id: u64,
}

/// A new [`ViewText`] id, never given before in this process. Each thread takes ids from a
/// block of its own, so that writing a part touches no memory shared between threads.
fn fresh_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    const BLOCK: u64 = 1 << 20;
    static BLOCKS: AtomicU64 = AtomicU64::new(BLOCK);
    thread_local!(static NEXT: Cell<(u64, u64)> = const { Cell::new((0, 0)) });
    NEXT.with(|next| {
        let (mut id, mut end) = next.get();
        if id == end {
            id = BLOCKS.fetch_add(BLOCK, Ordering::Relaxed);
            end = id + BLOCK;
        }
        next.set((id + 1, end));
        id
    })
}

/// A view text's bytes and index.
#[derive(Clone, Debug, Default)]
pub struct Body {
    text: String,
    /// `(start, end, after)` of every string and container, sorted by start: `end` is one past
    /// its last byte, `after` the entry of the first string or container after it (past its
    /// contents). Empty when the text is not well-formed (then nothing is looked up in it).
    ends: Vec<(u32, u32, u32)>,
}

impl std::ops::Deref for ViewText {
    type Target = Body;

    fn deref(&self) -> &Body {
        self.body.get_or_init(|| self.write.as_ref().map(|write| write().into_body()).unwrap_or_default())
    }
}

impl std::fmt::Debug for ViewText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ViewText").field("text", &self.body.get().map(|b| &b.text)).finish_non_exhaustive()
    }
}

/// Two texts are equal when their bytes and indexes are (a derived patch is a shortcut to
/// them, not part of them).
impl PartialEq for ViewText {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.ends == other.ends
    }
}

impl Eq for ViewText {}

/// The operations of each top-level member that changed from the part `from` to this one.
#[derive(Clone, Debug)]
struct Derived {
    /// The part this one follows. Only compared by address: held weakly, so that a chain of
    /// parts does not keep every earlier one alive, and the allocation is kept while this
    /// is, so the address is never another part's.
    from: Weak<ViewText>,
    members: Vec<MemberOps>,
}

/// One top-level member's operations (comma-separated compact JSON, as a patch's items),
/// written by [`PatchOps`].
#[derive(Clone, Debug)]
pub struct MemberOps {
    key: &'static str,
    ops: String,
}

impl ViewText {
    /// Indexes `text`.
    #[must_use]
    pub fn new(text: String) -> Self {
        let ends = index(text.as_bytes()).unwrap_or_default();
        ViewText::from_body(Body { text, ends })
    }

    fn from_body(body: Body) -> ViewText {
        ViewText { body: OnceLock::from(body), write: None, derived: None, id: fresh_id() }
    }

    /// A part whose text `write` writes when it is first asked for (by a snapshot, or a diff
    /// that has no patch to take from [`ViewText::derived_from`]): a table whose viewers all
    /// take the part's patch never writes it. `write` must give the same text every time.
    #[must_use]
    pub fn lazy(write: impl Fn() -> ViewText + Send + Sync + 'static) -> ViewText {
        ViewText { body: OnceLock::new(), write: Some(Arc::new(write)), derived: None, id: fresh_id() }
    }

    /// The text and index, written now if not yet.
    fn into_body(self) -> Body {
        let _ = &*self;
        self.body.into_inner().unwrap_or_default()
    }

    /// This part, with the patch to it from `from` (the part its engine wrote for the same
    /// members at the previous action), worked out by the engine from its own state: `members`
    /// holds the operations of every top-level member that changed, exactly as [`diff_text`]
    /// gives them (`check_view_patches` compares the two at every step). A table whose
    /// viewer holds `from` then takes these operations instead of diffing the two texts; any
    /// other old part is diffed as text.
    #[must_use]
    pub fn derived_from(mut self, from: &Arc<ViewText>, members: Vec<MemberOps>) -> Self {
        self.derived = Some(Box::new(Derived { from: Arc::downgrade(from), members }));
        self
    }

    /// Whether this part carries its patch from `old` ([`ViewText::derived_from`]).
    #[must_use]
    pub fn follows(&self, old: &Arc<ViewText>) -> bool {
        self.derived_ops(old).is_some()
    }

    /// The operations from `old` to this part, if its engine worked them out from `old`.
    fn derived_ops(&self, old: &Arc<ViewText>) -> Option<&[MemberOps]> {
        self.derived.as_ref().filter(|d| std::ptr::eq(d.from.as_ptr(), Arc::as_ptr(old))).map(|d| &d.members[..])
    }

    /// `value` as compact JSON text (as `serde_json::to_string` writes it), indexed while it
    /// is written: no second pass over the text. `null` if `value` cannot be serialised.
    pub fn serialize<T: Serialize + ?Sized>(value: &T) -> ViewText {
        Self::serialize_sized(value, 1024)
    }

    /// [`ViewText::serialize`] for a text of about `bytes` bytes (a part of a view that is
    /// written for each viewer, and small, need not start with a whole view's buffers).
    pub fn serialize_sized<T: Serialize + ?Sized>(value: &T, bytes: usize) -> ViewText {
        let pos = Cell::new(0);
        let mut buf = Vec::with_capacity(bytes);
        let mut ends = Vec::with_capacity(bytes / 8);
        let written = {
            let writer = PosWriter { buf: &mut buf, pos: &pos };
            let formatter = Indexer { pos: &pos, ends: &mut ends, open: Vec::with_capacity(16), string: 0 };
            value.serialize(&mut serde_json::Serializer::with_formatter(writer, formatter))
        };
        match (written, String::from_utf8(buf)) {
            (Ok(()), Ok(text)) if u32::try_from(text.len()).is_ok() => ViewText::from_body(Body { text, ends }),
            (Ok(()), Ok(text)) => ViewText::new(text),
            _ => ViewText::new("null".to_owned()),
        }
    }

    /// One object holding the members of the object texts `parts`, in order: `{"a":1}` and
    /// `{"b":[2]}` give `{"a":1,"b":[2]}`. The parts' indexes are shifted into place rather than
    /// the joined text scanned again, so an engine can write the members that every viewer
    /// shares once per action and join them to each viewer's own. The result is exactly the
    /// text and index of [`ViewText::new`] on the joined text. A part that is not an indexed
    /// object goes in as it is, and the whole is then indexed by scanning.
    #[must_use]
    pub fn join_objects(parts: &[&ViewText]) -> ViewText {
        let len: usize = parts.iter().map(|p| p.text.len()).sum::<usize>() + 2;
        let mut text = String::with_capacity(len);
        let mut ends = Vec::with_capacity(parts.iter().map(|p| p.ends.len()).sum::<usize>() + 1);
        let mut indexed = u32::try_from(len).is_ok();
        text.push('{');
        ends.push((0, 0, 0));
        for part in parts {
            let inner = part.text.strip_prefix('{').and_then(|t| t.strip_suffix('}'));
            let well_formed = part.ends.first().is_some_and(|e| e.0 == 0 && e.1 as usize == part.text.len());
            let Some(inner) = inner.filter(|_| well_formed) else {
                indexed = false;
                text.push_str(&part.text);
                continue;
            };
            if inner.is_empty() {
                continue;
            }
            if text.len() > 1 {
                text.push(',');
            }
            // The part's byte 1 lands at `text.len()`, its entry 1 at `ends.len()`. Lengths fit
            // in u32 (checked above; if not, the result is re-indexed below).
            #[allow(clippy::cast_possible_truncation)]
            let (bytes, entries) = ((text.len() - 1) as u32, (ends.len() - 1) as u32);
            text.push_str(inner);
            ends.extend(
                part.ends[1..].iter().map(|&(start, end, after)| (start + bytes, end + bytes, after + entries)),
            );
        }
        text.push('}');
        if !indexed {
            return ViewText::new(text);
        }
        #[allow(clippy::cast_possible_truncation)]
        let whole = (0, text.len() as u32, ends.len() as u32);
        ends[0] = whole;
        ViewText::from_body(Body { text, ends })
    }

    /// The JSON text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The index entry of the string or container starting at byte `start`.
    fn entry(&self, start: usize) -> Option<usize> {
        let at = u32::try_from(start).ok()?;
        self.ends.binary_search_by_key(&at, |entry| entry.0).ok()
    }

    /// Where the value starting at byte `start` ends (one past its last byte), and the index
    /// entry to try first for the value that follows it. `hint` is the entry to try first for
    /// this one: members and items are looked up in text order, so the guess is nearly always
    /// right and the binary search is the fallback.
    fn value_end(&self, start: usize, hint: usize) -> Option<(usize, usize)> {
        let bytes = self.text.as_bytes();
        match bytes.get(start)? {
            b'"' | b'{' | b'[' => {
                let found = match self.ends.get(hint) {
                    Some(entry) if usize::try_from(entry.0).ok() == Some(start) => hint,
                    _ => self.entry(start)?,
                };
                let entry = self.ends[found];
                Some((usize::try_from(entry.1).ok()?, usize::try_from(entry.2).ok()?))
            }
            _ => {
                let len =
                    bytes[start..].iter().position(|b| matches!(b, b',' | b'}' | b']')).unwrap_or(bytes.len() - start);
                (len > 0).then_some((start + len, hint))
            }
        }
    }
}

/// A writer that keeps its length where the [`Indexer`] can read it.
struct PosWriter<'a> {
    buf: &'a mut Vec<u8>,
    pos: &'a Cell<usize>,
}

impl io::Write for PosWriter<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        self.pos.set(self.buf.len());
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        self.pos.set(self.buf.len());
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact formatter, recording where each string and container starts and ends
/// (the same entries [`index`] finds by scanning).
struct Indexer<'a> {
    pos: &'a Cell<usize>,
    ends: &'a mut Vec<(u32, u32, u32)>,
    open: Vec<usize>,
    /// The entry of the string being written.
    string: usize,
}

impl Indexer<'_> {
    // Positions are checked to fit in u32 once the text is complete (else it is re-indexed).
    #[allow(clippy::cast_possible_truncation)]
    #[inline]
    fn start(&mut self) -> usize {
        self.ends.push((self.pos.get() as u32, 0, 0));
        self.ends.len() - 1
    }

    #[allow(clippy::cast_possible_truncation)]
    #[inline]
    fn end(&mut self, entry: usize, after: usize) {
        if let Some(slot) = self.ends.get_mut(entry) {
            slot.1 = self.pos.get() as u32;
            slot.2 = after as u32;
        }
    }

    #[inline]
    fn open(&mut self) {
        let entry = self.start();
        self.open.push(entry);
    }

    #[inline]
    fn close(&mut self) {
        if let Some(entry) = self.open.pop() {
            let after = self.ends.len();
            self.end(entry, after);
        }
    }
}

impl Formatter for Indexer<'_> {
    fn begin_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.string = self.start();
        writer.write_all(b"\"")
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"\"")?;
        self.end(self.string, self.string + 1);
        Ok(())
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open();
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"]")?;
        self.close();
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open();
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"}")?;
        self.close();
        Ok(())
    }
}

impl From<ViewText> for String {
    fn from(view: ViewText) -> String {
        view.into_body().text
    }
}

/// The index entries of `bytes` (see [`ViewText`]); `None` if the brackets or quotes do not
/// balance.
fn index(bytes: &[u8]) -> Option<Vec<(u32, u32, u32)>> {
    if u32::try_from(bytes.len()).is_err() {
        return None;
    }
    let mut ends: Vec<(u32, u32, u32)> = Vec::with_capacity(bytes.len() / 8);
    // Positions in `ends` of the containers still open.
    let mut open: Vec<usize> = Vec::with_capacity(16);
    let mut at = 0usize;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                let mut end = at + 1;
                loop {
                    match bytes.get(end)? {
                        b'\\' => end += 2,
                        b'"' => break,
                        _ => end += 1,
                    }
                }
                // Lengths were checked to fit in u32 above (and so are entry counts).
                ends.push((at as u32, (end + 1) as u32, ends.len() as u32 + 1));
                at = end + 1;
                continue;
            }
            b'{' | b'[' => {
                open.push(ends.len());
                ends.push((at as u32, 0, 0));
            }
            b'}' | b']' => {
                let slot = open.pop()?;
                ends[slot].1 = (at + 1) as u32;
                ends[slot].2 = ends.len() as u32;
            }
            _ => {}
        }
        at += 1;
    }
    open.is_empty().then_some(ends)
}

/// The patch from `old` to `new`, using both texts' indexes.
#[must_use]
pub fn diff_texts(old: &ViewText, new: &ViewText) -> Patch {
    // The text is what `serde_json` writes for the patch, so it reads back as that patch.
    serde_json::from_str(&diff_text(old, new)).unwrap_or(Patch(Vec::new()))
}

/// The patch from `old` to `new` as its compact JSON text: exactly `serde_json::to_string` of
/// [`diff_texts`], written straight from the two texts (no operation or value is built).
#[must_use]
pub fn diff_text(old: &ViewText, new: &ViewText) -> String {
    let mut ops = Ops::default();
    let (left, right) = (Doc { view: old }, Doc { view: new });
    diff_at(left, 0, old.text.len(), right, 0, new.text.len(), &mut ops);
    format!("[{}]", ops.out)
}

/// A view as the runs of top-level members it was written in, each a JSON object: joined
/// ([`ViewText::join_objects`]), they are the view's text. An engine that writes the members
/// every viewer shares once per action hands each viewer the same [`Arc`] for them, so that a
/// table diffs each shared run once per action ([`diff_parts_memo`]), not once per viewer, and
/// never joins a view unless it is asked for whole (a snapshot).
#[derive(Clone, Debug, Default)]
pub struct ViewParts {
    /// Held in place up to [`INLINE_PARTS`]: a view per viewer per action, no allocation.
    parts: smallvec::SmallVec<[Arc<ViewText>; INLINE_PARTS]>,
}

/// The most parts a [`ViewParts`] holds without allocating (the engines write at most eight).
const INLINE_PARTS: usize = 8;

impl ViewParts {
    /// The view made of `parts`, in order; each must be a JSON object, and no key may occur
    /// in two of them.
    #[must_use]
    pub fn new(parts: impl IntoIterator<Item = Arc<ViewText>>) -> Self {
        ViewParts { parts: parts.into_iter().collect() }
    }

    /// A view written as one text.
    #[must_use]
    pub fn whole(text: ViewText) -> Self {
        ViewParts { parts: smallvec::smallvec![Arc::new(text)] }
    }

    /// The view's whole text.
    #[must_use]
    pub fn join(&self) -> ViewText {
        let mut joined = self.join_parts();
        joined.derived = None;
        joined
    }

    /// The view's whole text as `serde_json` writes it as a [`Value`] (every object's members
    /// in key order, as in every patch's values), written from the parts' text and index, with
    /// no `Value` parsed and written again.
    #[must_use]
    pub fn value_text(&self) -> String {
        let joined = self.join_parts();
        let mut out = String::with_capacity(joined.text.len());
        write_value(Doc { view: &joined }, 0, joined.text.len(), &mut out);
        out
    }

    /// The parts, in order.
    #[must_use]
    pub fn parts(&self) -> &[Arc<ViewText>] {
        &self.parts
    }

    fn join_parts(&self) -> ViewText {
        match self.parts.as_slice() {
            [one] => ViewText::clone(one),
            parts => ViewText::join_objects(&parts.iter().map(|p| &**p).collect::<Vec<_>>()),
        }
    }
}

/// What an engine keeps from one action's views to the next (its own type, created on first
/// use), so that it need not write again a part whose inputs did not change: it hands out the
/// same [`Arc`] as before, which the table then skips without comparing a byte. What a memo
/// holds must be exact (the inputs compared in full, never a hash): the parts an engine writes
/// with it are the ones it writes without it (`check_view_patches` checks this at every step).
/// A table keeps one for its game; a caller with none passes `&mut ViewCache::default()`.
#[derive(Default)]
pub struct ViewCache(Option<Box<dyn std::any::Any + Send + Sync>>);

impl ViewCache {
    /// The engine's memo of type `T`, made afresh if there is none (or one of another type).
    pub fn get<T: std::any::Any + Send + Sync + Default>(&mut self) -> &mut T {
        let memo = self.0.get_or_insert_with(|| Box::new(T::default()));
        if !memo.is::<T>() {
            *memo = Box::new(T::default());
        }
        memo.downcast_mut::<T>().unwrap_or_else(|| unreachable!("a memo of this type was just set"))
    }
}

impl std::fmt::Debug for ViewCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "ViewCache(kept)" } else { "ViewCache(empty)" })
    }
}

/// The patches of one action's top-level view members, shared by the viewers of that action.
///
/// Most of a view is the same for every viewer (the board, the scores; what differs is a hand,
/// a face-down card), so after one action most viewers' patches repeat the same operations.
/// [`diff_texts_memo`] diffs a top-level member once per action for all viewers whose old and
/// new text of it are equal, and copies the operations for the others. Clear it (or make a new
/// one) for each action.
#[derive(Debug, Default)]
pub struct DiffMemo {
    /// The members diffed in this action: the first `used`. Those after are kept from earlier
    /// actions only for their buffers, which the next entries reuse.
    entries: Vec<MemoEntry>,
    used: usize,
    /// A path buffer, reused.
    path: String,
    /// Pairs of parts (old, new) already diffed, by their ids: where the entries of their
    /// changed members are in `pair_entries`, or `None` when their keys differ (then the views
    /// are diffed whole). Ids, unlike the parts' addresses, are never another part's, so no
    /// part need be held here (holding them cost two reference counts a pair and their drops).
    pairs: Vec<PartPair>,
    /// The pairs' entries, each pair's in one run.
    pair_entries: Vec<usize>,
    /// A view's entries, reused.
    entries_buf: Vec<usize>,
    /// The last view diffed part by part in this action, as what its patch was made of (see
    /// [`PartPairs`]), and that patch: a viewer whose views pair the same parts gets it copied.
    last: PartPairs,
    last_patch: String,
}

/// What a patch between two views given as parts is made of: for each part, `None` if the old
/// and new are the same [`Arc`] (it adds nothing), else the ids of the two (the pair's entries in
/// [`DiffMemo::pairs`]). Two views with the same pairs have the same patch: each part adds its
/// pair's entries, and the entries are put in key order. Empty when there is no last view (none
/// yet in this action, or it was joined and diffed whole).
#[derive(Debug, Default)]
struct PartPairs(Vec<Option<(u64, u64)>>);

impl PartPairs {
    fn pair(old: &Arc<ViewText>, new: &Arc<ViewText>) -> Option<(u64, u64)> {
        (!Arc::ptr_eq(old, new)).then_some((old.id, new.id))
    }

    /// Whether `old` → `new` pairs the parts these pairs name.
    fn same(&self, old: &ViewParts, new: &ViewParts) -> bool {
        !self.0.is_empty()
            && self.0.len() == new.parts.len()
            && self.0.iter().zip(old.parts.iter().zip(&new.parts)).all(|(pair, (o, n))| *pair == Self::pair(o, n))
    }

    fn set(&mut self, old: &ViewParts, new: &ViewParts) {
        self.0.clear();
        self.0.extend(old.parts.iter().zip(&new.parts).map(|(o, n)| Self::pair(o, n)));
    }
}

/// Two parts' ids (old, new) and the run of their changed members' entries in
/// [`DiffMemo::pair_entries`] (`None`: keys differ).
type PartPair = (u64, u64, Option<(usize, usize)>);

#[derive(Debug, Default)]
struct MemoEntry {
    key: String,
    old: String,
    new: String,
    /// The member's operations as JSON, comma-separated (empty when there are none).
    ops: String,
}

impl DiffMemo {
    /// Forgets every member diffed so far (call between actions).
    pub fn clear(&mut self) {
        self.used = 0;
        self.pairs.clear();
        self.pair_entries.clear();
        self.last.0.clear();
        // Buffers of an unusually large action are not kept.
        if self.entries.iter().any(|e| e.capacity() > MAX_KEPT_ENTRY) {
            self.entries.clear();
        }
        if self.last_patch.capacity() > MAX_KEPT_ENTRY {
            self.last_patch = String::new();
        }
    }

    /// The members diffed in this action.
    fn used(&self) -> &[MemoEntry] {
        &self.entries[..self.used]
    }
}

/// A memo entry whose buffers hold more than this is dropped, not reused.
const MAX_KEPT_ENTRY: usize = 64 * 1024;

impl MemoEntry {
    fn capacity(&self) -> usize {
        self.key.capacity() + self.old.capacity() + self.new.capacity() + self.ops.capacity()
    }
}

/// [`diff_texts`] as the patch's compact JSON text (what `serde_json::to_string` writes for
/// it), sharing work through `memo` with the other viewers of the same action: a member diffed
/// for one viewer is copied as text for the others, with no operation built or written again.
#[must_use]
pub fn diff_texts_memo(old: &ViewText, new: &ViewText, memo: &mut DiffMemo) -> String {
    match part_entries(old, new, memo) {
        Some((start, end)) => memo.patch(&memo.pair_entries[start..end]),
        None => diff_text(old, new),
    }
}

/// [`diff_texts_memo`] between two views given as parts: a pair of parts already diffed for
/// another viewer of this action (the same two parts) costs a lookup, and the views are not
/// joined. Views whose parts do not line up (another number of parts, or a part whose keys
/// changed) are joined and diffed whole, so the patch is always [`diff_texts`]'s.
#[must_use]
pub fn diff_parts_memo(old: &ViewParts, new: &ViewParts, memo: &mut DiffMemo) -> String {
    let mut patch = String::new();
    diff_parts_memo_into(old, new, memo, &mut patch);
    patch
}

/// [`diff_parts_memo`], written into `patch` (emptied first): a table writes every viewer's
/// patch of every action into one buffer it keeps.
pub fn diff_parts_memo_into(old: &ViewParts, new: &ViewParts, memo: &mut DiffMemo, patch: &mut String) {
    patch.clear();
    if old.parts.len() != new.parts.len() {
        memo.last.0.clear();
        patch.push_str(&diff_texts_memo(&old.join(), &new.join(), memo));
        return;
    }
    // Most viewers of an action pair the same parts as the viewer before them (only the part
    // that names the viewer differs, and it does not change): they get its patch as it is.
    if memo.last.same(old, new) {
        patch.push_str(&memo.last_patch);
        return;
    }
    memo.last.0.clear();
    let mut entries = std::mem::take(&mut memo.entries_buf);
    entries.clear();
    for (o, n) in old.parts.iter().zip(&new.parts) {
        if Arc::ptr_eq(o, n) {
            continue;
        }
        let pair = match memo.pairs.iter().position(|&(a, b, _)| a == o.id && b == n.id) {
            Some(at) => at,
            None => {
                let changed = match n.derived_ops(o) {
                    Some(members) => Some(memo.push_members(members)),
                    None => part_entries(o, n, memo),
                };
                memo.pairs.push((o.id, n.id, changed));
                memo.pairs.len() - 1
            }
        };
        match memo.pairs[pair].2 {
            Some((start, end)) => entries.extend_from_slice(&memo.pair_entries[start..end]),
            None => {
                memo.entries_buf = entries;
                patch.push_str(&diff_texts_memo(&old.join(), &new.join(), memo));
                return;
            }
        }
    }
    // json_patch walks the whole object's keys in order; each key is in one part only.
    entries.sort_by(|a, b| memo.used()[*a].key.cmp(&memo.used()[*b].key));
    memo.write_patch(&entries, patch);
    memo.entries_buf = entries;
    memo.last.set(old, new);
    memo.last_patch.clear();
    memo.last_patch.push_str(patch);
}

/// The memo entries, in key order, of the top-level members that differ between two objects
/// with the same keys (none if the texts are equal), added as one run to
/// [`DiffMemo::pair_entries`] (its start and end), or `None` if their keys differ or either
/// is not an object.
fn part_entries(old: &ViewText, new: &ViewText, memo: &mut DiffMemo) -> Option<(usize, usize)> {
    let start = memo.pair_entries.len();
    if old.text == new.text {
        return Some((start, start));
    }
    let (left, right) = (Doc { view: old }, Doc { view: new });
    if !old.text.starts_with('{') || !new.text.starts_with('{') {
        return None;
    }
    let lm = object_members(left, 0, old.text.len())?;
    let rm = object_members(right, 0, new.text.len())?;
    let changed = changed_in_key_order(left, &lm, right, &rm)?;
    for i in changed {
        let entry = member_entry(memo, lm[i].0.as_ref(), left, (lm[i].1, lm[i].2), right, (rm[i].1, rm[i].2));
        memo.pair_entries.push(entry);
    }
    Some((start, memo.pair_entries.len()))
}

/// The memo entry for the top-level member `key` going from `old` (in `left`) to `new` (in
/// `right`): found if another viewer's diff had the same, else diffed now.
fn member_entry(
    memo: &mut DiffMemo,
    key: &str,
    left: Doc<'_>,
    old: (usize, usize),
    right: Doc<'_>,
    new: (usize, usize),
) -> usize {
    let (old_text, new_text) = (left.text(old.0, old.1), right.text(new.0, new.1));
    if let Some(at) = memo.used().iter().position(|e| e.key == key && e.old == old_text && e.new == new_text) {
        return at;
    }
    if memo.used == memo.entries.len() {
        memo.entries.push(MemoEntry::default());
    }
    let at = memo.used;
    memo.used += 1;
    // The entry's and the memo's buffers, emptied, as the new entry's.
    let entry = &mut memo.entries[at];
    let mut ops = Ops { out: std::mem::take(&mut entry.ops), path: std::mem::take(&mut memo.path), start: 0 };
    ops.out.clear();
    // Room for a member's usual operations (one or two, each some tens of bytes), so that
    // writing them does not grow the buffer step by step.
    ops.out.reserve(192);
    ops.path.clear();
    ops.push_key(key);
    diff_at(left, old.0, old.1, right, new.0, new.1, &mut ops);
    for (buffer, text) in [(&mut entry.key, key), (&mut entry.old, old_text), (&mut entry.new, new_text)] {
        buffer.clear();
        buffer.push_str(text);
    }
    entry.ops = ops.out;
    memo.path = ops.path;
    at
}

impl DiffMemo {
    /// Entries for operations an engine worked out ([`ViewText::derived_from`]). Their old and
    /// new texts are left empty: no member's text is empty, so no text diff finds them.
    fn push_members(&mut self, members: &[MemberOps]) -> (usize, usize) {
        let start = self.pair_entries.len();
        for member in members.iter().filter(|m| !m.ops.is_empty()) {
            if self.used == self.entries.len() {
                self.entries.push(MemoEntry::default());
            }
            let entry = &mut self.entries[self.used];
            for (buffer, text) in [(&mut entry.key, member.key), (&mut entry.ops, &member.ops)] {
                buffer.clear();
                buffer.push_str(text);
            }
            entry.old.clear();
            entry.new.clear();
            self.pair_entries.push(self.used);
            self.used += 1;
        }
        (start, self.pair_entries.len())
    }

    /// The patch made of these entries' operations, in this order.
    fn patch(&self, entries: &[usize]) -> String {
        let mut out = String::new();
        self.write_patch(entries, &mut out);
        out
    }

    /// [`DiffMemo::patch`], appended to `out`.
    fn write_patch(&self, entries: &[usize], out: &mut String) {
        let len: usize = entries.iter().map(|e| self.used()[*e].ops.len() + 1).sum();
        out.reserve(len + 2);
        out.push('[');
        let mut first = true;
        for ops in entries.iter().map(|e| &self.used()[*e].ops).filter(|ops| !ops.is_empty()) {
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(ops);
        }
        out.push(']');
    }
}

/// One side of the diff: a text and its index.
#[derive(Clone, Copy)]
struct Doc<'a> {
    view: &'a ViewText,
}

impl<'a> Doc<'a> {
    fn text(self, start: usize, end: usize) -> &'a str {
        self.view.text.get(start..end).unwrap_or("")
    }
}

/// Operations written as the compact JSON text `serde_json` gives a [`Patch`]'s items
/// (comma-separated, no brackets), at the JSON pointer `path` (kept escaped for a JSON string).
#[derive(Default)]
struct Ops {
    out: String,
    path: String,
    /// Where in `out` the operations being written began: a comma goes before each one but
    /// the first from there (a [`PatchOps`] writes one member's after another's).
    start: usize,
}

impl Ops {
    /// Appends the reference token `key` (an object member's unescaped key) to the path.
    fn push_key(&mut self, key: &str) {
        self.path.push('/');
        // Nearly every key is plain: nothing to escape, copied as it is.
        if !key.bytes().any(|b| matches!(b, b'~' | b'/' | b'"' | b'\\') || b < 0x20) {
            self.path.push_str(key);
            return;
        }
        // RFC 6901: `~` then `/`. JSON string escapes contain neither, so the order of the two
        // escapings does not matter.
        for c in json_escaped(key).chars() {
            match c {
                '~' => self.path.push_str("~0"),
                '/' => self.path.push_str("~1"),
                c => self.path.push(c),
            }
        }
    }

    fn push_index(&mut self, index: usize) {
        self.path.push('/');
        push_uint(&mut self.path, index as u64);
    }

    fn begin(&mut self, op: &str) {
        if self.out.len() > self.start {
            self.out.push(',');
        }
        self.out.push_str(r#"{"op":""#);
        self.out.push_str(op);
        self.out.push_str(r#"","path":""#);
        self.out.push_str(&self.path);
        self.out.push('"');
    }

    fn remove(&mut self) {
        self.begin("remove");
        self.out.push('}');
    }

    /// An `add` or `replace` of the value at `start..end` of `doc`.
    fn with_value(&mut self, op: &str, doc: Doc<'_>, start: usize, end: usize) {
        self.begin(op);
        self.out.push_str(r#","value":"#);
        write_value(doc, start, end, &mut self.out);
        self.out.push('}');
    }
}

/// Writes the operations of a part's members as [`diff_text`] would find them, for an engine
/// that works them out from its own state ([`ViewText::derived_from`]). It mirrors
/// `json_patch::diff`: an object's members in sorted key order (added or changed ones, then
/// removed ones), arrays index by index ([`PatchOps::items`]), a scalar replaced when it
/// differs; values are written as `serde_json` writes them (objects with sorted keys).
///
/// Its members' operations are written one after another into one buffer: a `PatchOps` kept
/// from one action to the next ([`PatchOps::clear`]) writes them with no allocation.
pub struct PatchOps {
    ops: Ops,
    /// The top-level member being written, and each member done with its operations' place in
    /// `ops.out` (a member with none is left out).
    member: Option<&'static str>,
    spans: Vec<(&'static str, usize, usize)>,
}

thread_local! {
    /// The working buffers of the last [`PatchOps`] finished on this thread, handed to the next:
    /// an engine writes a few every action, and its members are copied out at their size.
    static SPARE_OPS: std::cell::Cell<Option<Ops>> = const { std::cell::Cell::new(None) };
}

impl Default for PatchOps {
    fn default() -> Self {
        // Room for a few operations and a path a few levels deep, so that writing them does
        // not grow the buffers step by step; the last finished one's buffers when there are.
        let ops = SPARE_OPS.take().unwrap_or_else(|| Ops {
            out: String::with_capacity(256),
            path: String::with_capacity(64),
            start: 0,
        });
        PatchOps { ops, member: None, spans: Vec::with_capacity(4) }
    }
}

impl PatchOps {
    /// Starts the operations of the top-level member `key` (the path is then `/key`). Members
    /// may come in any order; each once.
    pub fn member(&mut self, key: &'static str) {
        self.end_member();
        self.ops.path.clear();
        self.ops.push_key(key);
        self.member = Some(key);
        self.ops.start = self.ops.out.len();
    }

    fn end_member(&mut self) {
        if let Some(key) = self.member.take() {
            if self.ops.out.len() > self.ops.start {
                self.spans.push((key, self.ops.start, self.ops.out.len()));
            }
        }
    }

    /// Forgets every member written, keeping the buffers (for the next action's).
    pub fn clear(&mut self) {
        self.member = None;
        self.spans.clear();
        self.ops.out.clear();
        self.ops.path.clear();
        self.ops.start = 0;
    }

    /// The operations of the member `key` from the JSON value `old` to the JSON value `new`
    /// (both compact, as `serde_json` writes them), diffed as text as [`diff_text`] does: for a
    /// member an engine does not work out by hand (one that seldom changes).
    pub fn diffed(&mut self, key: &'static str, old: &str, new: &str) {
        self.member(key);
        let (old, new) = (ViewText::new(old.to_owned()), ViewText::new(new.to_owned()));
        diff_at(Doc { view: &old }, 0, old.text.len(), Doc { view: &new }, 0, new.text.len(), &mut self.ops);
    }

    /// Each member written so far with its operations (comma-separated), the one being
    /// written last.
    fn written(&self) -> impl Iterator<Item = (&'static str, &str)> {
        let open = self.member.map(|key| (key, self.ops.start, self.ops.out.len()));
        self.spans
            .iter()
            .copied()
            .chain(open)
            .filter(|(_, start, end)| end > start)
            .map(|(key, start, end)| (key, self.ops.out.get(start..end).unwrap_or("")))
    }

    /// `write` at the member `key` of the object at the path (the path is as before after it).
    pub fn at_key(&mut self, key: &str, write: impl FnOnce(&mut Self)) {
        let len = self.ops.path.len();
        self.ops.push_key(key);
        write(self);
        self.ops.path.truncate(len);
    }

    /// `write` at the item `index` of the array at the path (see [`PatchOps::at_key`]).
    pub fn at_index(&mut self, index: usize, write: impl FnOnce(&mut Self)) {
        let len = self.ops.path.len();
        self.ops.push_index(index);
        write(self);
        self.ops.path.truncate(len);
    }

    /// Replaces the value at the path with the JSON `value` writes.
    pub fn replace(&mut self, value: impl FnOnce(&mut String)) {
        self.value_op("replace", value);
    }

    /// Adds the JSON `value` writes at the path.
    pub fn add(&mut self, value: impl FnOnce(&mut String)) {
        self.value_op("add", value);
    }

    /// Removes the value at the path.
    pub fn remove(&mut self) {
        self.ops.remove();
    }

    fn value_op(&mut self, op: &str, value: impl FnOnce(&mut String)) {
        self.ops.begin(op);
        self.ops.out.push_str(r#","value":"#);
        value(&mut self.ops.out);
        self.ops.out.push('}');
    }

    /// The array at the path going from `old` to `new`, as `json_patch` diffs arrays: index by
    /// index, `both` for an item in both that differs (it writes the item's own operations, at
    /// its path; equal items must write equal JSON), then the items only `old` has removed
    /// (each at the same index, as later ones shift down) or those only `new` has added,
    /// written by `value`.
    pub fn items<T: PartialEq>(
        &mut self,
        old: &[T],
        new: &[T],
        mut both: impl FnMut(&mut Self, &T, &T),
        mut value: impl FnMut(&mut String, &T),
    ) {
        for (i, (o, n)) in old.iter().zip(new).enumerate().filter(|(_, (o, n))| o != n) {
            self.at_index(i, |ops| both(ops, o, n));
        }
        for _ in new.len()..old.len() {
            self.at_index(new.len(), Self::remove);
        }
        for (i, n) in new.iter().enumerate().skip(old.len()) {
            self.at_index(i, |ops| ops.add(|out| value(out, n)));
        }
    }

    /// The operations of every member, done.
    #[must_use]
    pub fn finish(mut self) -> Vec<MemberOps> {
        self.end_member();
        let members = self.written().map(|(key, ops)| MemberOps { key, ops: ops.to_owned() }).collect();
        let PatchOps { mut ops, .. } = self;
        // Kept unless a rare long patch grew them: spare buffers stay small.
        if ops.out.capacity() <= 4096 && ops.path.capacity() <= 1024 {
            ops.out.clear();
            ops.path.clear();
            ops.start = 0;
            SPARE_OPS.set(Some(ops));
        }
        members
    }
}

/// Writes into `patch` (emptied first) the patch made of the members written in these
/// [`PatchOps`] (each key in one of them, once): what `json_patch::diff` gives between two
/// objects whose top-level members changed by exactly these operations, as it walks the
/// object's keys in sorted order. For an engine that writes its viewers' patches itself
/// ([`crate::Game::view_patches`]).
pub fn write_members_patch(groups: &[&PatchOps], patch: &mut String) {
    let mut members: smallvec::SmallVec<[(&str, &str); 24]> = groups.iter().flat_map(|g| g.written()).collect();
    members.sort_unstable_by_key(|(key, _)| *key);
    patch.clear();
    patch.push('[');
    for (i, (_, ops)) in members.iter().enumerate() {
        if i > 0 {
            patch.push(',');
        }
        patch.push_str(ops);
    }
    patch.push(']');
}

/// Writes the integer `n` as JSON (as `serde_json` writes it).
pub fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_uint(out, n.unsigned_abs());
}

/// Writes `n` in decimal: a digit by itself, anything longer with `itoa` (what serde_json
/// writes integers with), with no UTF-8 check of its digits. `write!` through `fmt` costs several
/// times as much, and a patch of a long array writes many indexes.
pub fn push_uint(out: &mut String, n: u64) {
    if n < 10 {
        // Below 10: the cast cannot truncate.
        #[allow(clippy::cast_possible_truncation)]
        out.push(char::from(b'0' + n as u8));
    } else {
        out.push_str(itoa::Buffer::new().format(n));
    }
}

/// Appends `numbers` as a JSON array, each as [`push_uint`] writes it (as serde_json writes a
/// list of unsigned integers: seats, cards, counts).
pub fn push_uints(out: &mut String, numbers: impl IntoIterator<Item = u64>) {
    out.push('[');
    for (i, n) in numbers.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_uint(out, n);
    }
    out.push(']');
}

/// [`push_uint`] into bytes (a state's canonical JSON, which is hashed as bytes).
pub fn push_uint_bytes(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Writes the value at `start..end` of `doc` as `serde_json` writes it as a [`Value`]: objects
/// with their members in key order (a struct's text has them in declaration order), everything
/// else as it is. What is not plain (a float, text that is not JSON) is parsed and written.
fn write_value(doc: Doc<'_>, start: usize, end: usize, out: &mut String) {
    let text = doc.text(start, end);
    if matches!(text.as_bytes().first(), Some(b'{' | b'[')) && verbatim(text.as_bytes()) {
        out.push_str(text);
        return;
    }
    match text.as_bytes().first() {
        Some(b'{') => {
            if let Some(mut members) = object_members(doc, start, end) {
                members.sort_by(|a, b| a.0.cmp(&b.0));
                // A repeated key (which no serialised view has) keeps its last value in a `Value`.
                if members.windows(2).all(|w| w[0].0 != w[1].0) {
                    out.push('{');
                    for (i, (key, v0, v1)) in members.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        push_json_string(out, key);
                        out.push(':');
                        write_value(doc, *v0, *v1, out);
                    }
                    out.push('}');
                    return;
                }
            }
        }
        Some(b'[') => {
            if let Some(items) = array_items(doc, start, end) {
                out.push('[');
                for (i, (v0, v1)) in items.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_value(doc, v0, v1, out);
                }
                out.push(']');
                return;
            }
        }
        _ if plain_scalar(doc, start, end) => {
            out.push_str(text);
            return;
        }
        _ => {}
    }
    out.push_str(&serde_json::to_string(&parse(text)).unwrap_or_else(|_| "null".to_owned()));
}

/// Whether the compact JSON container `text` is, byte for byte, what a [`Value`] writes for
/// it, so that [`write_value`] may copy it whole: well-formed, with no object nested in it (a
/// `Value` orders an object's members) and, if it is an object itself, its keys in ascending
/// order already; no escape in any string; every number a plain integer (as
/// [`plain_integer`] takes them). Lists of numbers and small ordered objects, of which views are
/// mostly made, pass; anything else most often fails at once, at its first nested object.
fn verbatim(text: &[u8]) -> bool {
    /// What may come next.
    #[derive(Clone, Copy)]
    enum Next {
        Value,
        ValueOrClose,
        Key,
        KeyOrClose,
        Colon,
        CommaOrClose,
    }
    /// Reads the string whose opening quote is before `at`; `None` if it has an escape or a raw
    /// control character (not JSON), or does not end.
    fn string<'t>(text: &'t [u8], at: &mut usize) -> Option<&'t [u8]> {
        let rest = text.get(*at..)?;
        let close = next_escaped(rest, 0)?;
        if rest[close] != b'"' {
            return None;
        }
        *at += close + 1;
        Some(&rest[..close])
    }
    let object = text.first() == Some(&b'{');
    // Open containers: the first is `text` itself (an object if `object`), the others arrays.
    let mut depth = 0usize;
    let mut last_key: Option<&[u8]> = None;
    let mut next = Next::Value;
    let mut at = 0;
    while let Some(&b) = text.get(at) {
        let in_object = object && depth == 1;
        at += 1;
        next = match (next, b) {
            (Next::Value | Next::ValueOrClose, b'[') => {
                depth += 1;
                Next::ValueOrClose
            }
            (Next::Value, b'{') if depth == 0 => {
                depth = 1;
                Next::KeyOrClose
            }
            (Next::ValueOrClose | Next::CommaOrClose, b']') if depth > 0 && !in_object => {
                depth -= 1;
                Next::CommaOrClose
            }
            (Next::KeyOrClose | Next::CommaOrClose, b'}') if in_object => {
                depth -= 1;
                Next::CommaOrClose
            }
            (Next::CommaOrClose, b',') if depth > 0 => {
                if in_object {
                    Next::Key
                } else {
                    Next::Value
                }
            }
            (Next::Colon, b':') => Next::Value,
            (Next::Key | Next::KeyOrClose, b'"') => {
                let Some(key) = string(text, &mut at) else { return false };
                if last_key.is_some_and(|last| last >= key) {
                    return false;
                }
                last_key = Some(key);
                Next::Colon
            }
            (Next::Value | Next::ValueOrClose, b'"') => {
                if string(text, &mut at).is_none() {
                    return false;
                }
                Next::CommaOrClose
            }
            (Next::Value | Next::ValueOrClose, b'-' | b'0'..=b'9') => {
                let first = at - 1;
                while text.get(at).is_some_and(u8::is_ascii_digit) {
                    at += 1;
                }
                if !plain_integer(&text[first..at]) {
                    return false;
                }
                Next::CommaOrClose
            }
            (Next::Value | Next::ValueOrClose, b't' | b'f' | b'n') => {
                let word: &[u8] = match b {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                if !text[at - 1..].starts_with(word) {
                    return false;
                }
                at += word.len() - 1;
                Next::CommaOrClose
            }
            _ => return false,
        };
        if depth == 0 {
            return at == text.len();
        }
    }
    false
}

/// Appends `text` as a JSON string, escaped exactly as serde_json escapes it: `"` and `\`, the
/// control characters that have a short escape (`\b`, `\t`, `\n`, `\f`, `\r`) and the other ones
/// as `\u00xx` in lowercase hex; everything else as it is. Written in place, with no string of
/// its own: views' keys here, and the server's events' sentences at every action.
pub fn push_json_string(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let bytes = text.as_bytes();
    let mut plain = 0;
    while let Some(at) = next_escaped(bytes, plain) {
        // Every escaped byte is ASCII: the runs between them are whole characters.
        out.push_str(text.get(plain..at).unwrap_or_default());
        let b = bytes[at];
        let short = match b {
            b'"' => r#"\""#,
            b'\\' => r"\\",
            0x08 => r"\b",
            b'\t' => r"\t",
            b'\n' => r"\n",
            0x0c => r"\f",
            b'\r' => r"\r",
            _ => "",
        };
        if short.is_empty() {
            out.push_str(r"\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0x0f)]));
        } else {
            out.push_str(short);
        }
        plain = at + 1;
    }
    out.push_str(text.get(plain..).unwrap_or_default());
    out.push('"');
}

/// The index of the first byte at or after `from` that JSON escapes ([`escaped_in_json`]).
/// Eight bytes are looked at in one step: most text (ids, sentences) has nothing to escape, and
/// a byte at a time costs several instructions a byte.
fn next_escaped(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // Whether any byte of `x` is zero (exact for the word as a whole, not for each byte).
    let any_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let mut at = from;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_ne_bytes(word);
        // A byte below 0x20 (the same test as a zero byte, against 0x20), a quote, a backslash.
        let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH != 0;
        if control || any_zero(x ^ (ONES * u64::from(b'"'))) || any_zero(x ^ (ONES * u64::from(b'\\'))) {
            break;
        }
        at += 8;
    }
    bytes.get(at..)?.iter().position(|&b| escaped_in_json(b)).map(|i| at + i)
}

/// Whether serde_json writes `text` as a string as it stands, between quotes: it has no quote,
/// backslash or control character ([`push_json_string`] would escape nothing).
pub fn needs_no_escape(text: &str) -> bool {
    next_escaped(text.as_bytes(), 0).is_none()
}

/// Whether serde_json escapes the byte `b` in a string ([`push_json_string`]): a quote, a
/// backslash, a control character.
fn escaped_in_json(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// What serde_json writes between the quotes of the string `value`.
fn json_escaped(value: &str) -> Cow<'_, str> {
    if needs_no_escape(value) {
        return Cow::Borrowed(value);
    }
    let mut quoted = String::with_capacity(value.len() + 8);
    push_json_string(&mut quoted, value);
    Cow::Owned(quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or("").to_owned())
}

/// Whether the text at `start..end` is a scalar that a `Value` writes back byte for byte, and
/// whose every other text is another value: a string as serde_json writes strings (found in
/// the index, with no escape other than serde_json's own), an integer, `true`, `false`, `null`.
fn plain_scalar(doc: Doc<'_>, start: usize, end: usize) -> bool {
    let text = doc.text(start, end);
    match text.as_bytes() {
        // Nearly every string has no escape: then one look at its bytes tells (a quote only at
        // each end, no raw control character).
        [b'"', inner @ .., b'"'] if next_escaped(inner, 0).is_none() => true,
        [b'"', ..] => {
            doc.view.entry(start).is_some_and(|i| doc.view.ends[i].1 as usize == end)
                && !text.contains("\\u")
                && !text.contains("\\/")
                && !text.contains("\\b")
                && !text.contains("\\f")
        }
        b"true" | b"false" | b"null" => true,
        token => plain_integer(token),
    }
}

/// Whether `token` is an integer a `Value` writes back byte for byte: no `-0` (a float), no
/// leading zero, and short enough for an i64.
fn plain_integer(token: &[u8]) -> bool {
    match token {
        [b'-', digits @ ..] => digits.first().is_some_and(|d| *d != b'0') && integer(digits),
        digits => integer(digits),
    }
}

fn integer(digits: &[u8]) -> bool {
    !digits.is_empty()
        && digits.len() < 19
        && digits.iter().all(u8::is_ascii_digit)
        && (digits.len() == 1 || digits[0] != b'0')
}

fn diff_at(left: Doc<'_>, l0: usize, l1: usize, right: Doc<'_>, r0: usize, r1: usize, ops: &mut Ops) {
    let (old, new) = (left.text(l0, l1), right.text(r0, r1));
    if old == new {
        return;
    }
    match (old.as_bytes().first(), new.as_bytes().first()) {
        (Some(b'{'), Some(b'{')) => {
            if let (Some(lm), Some(rm)) = (object_members(left, l0, l1), object_members(right, r0, r1)) {
                return diff_object(left, lm, right, rm, ops);
            }
        }
        (Some(b'['), Some(b'[')) => {
            if let (Some(li), Some(ri)) = (array_items(left, l0, l1), array_items(right, r0, r1)) {
                return diff_array(left, &li, right, &ri, ops);
            }
        }
        _ => {}
    }
    // Scalars, or values of different types. Text that differs can still be an equal value
    // (`1.0` and `1.00`), and `json_patch::diff` compares values here: so do we, unless both
    // are plain scalars (whose texts differ only if their values do).
    if (plain_scalar(left, l0, l1) && plain_scalar(right, r0, r1)) || parse(old) != parse(new) {
        ops.with_value("replace", right, r0, r1);
    }
}

/// An object member: its unescaped key and where its value lies.
type Member<'a> = (Cow<'a, str>, usize, usize);

/// An object's members, held in place up to 16 (as many as most objects in a view have).
type Members<'a> = smallvec::SmallVec<[Member<'a>; 16]>;

/// Where an array's items lie, held in place up to 32.
type Items = smallvec::SmallVec<[(usize, usize); 32]>;

/// When both objects have the same keys in the same order (a struct's fields, nearly always),
/// the members whose text differs (only those can give operations), in key order as
/// json_patch visits them (structs serialise in declaration order, `Value` objects in key
/// order); `None` when the keys differ.
fn changed_in_key_order(
    left_doc: Doc<'_>,
    left: &[Member<'_>],
    right_doc: Doc<'_>,
    right: &[Member<'_>],
) -> Option<Vec<usize>> {
    if left.len() != right.len() || left.iter().zip(right).any(|(l, r)| l.0 != r.0) {
        return None;
    }
    let mut changed: Vec<usize> = (0..left.len())
        .filter(|&i| left_doc.text(left[i].1, left[i].2) != right_doc.text(right[i].1, right[i].2))
        .collect();
    changed.sort_by(|a, b| left[*a].0.cmp(&left[*b].0));
    Some(changed)
}

fn diff_object<'a>(
    left_doc: Doc<'_>,
    mut left: Members<'a>,
    right_doc: Doc<'_>,
    mut right: Members<'a>,
    ops: &mut Ops,
) {
    let at = ops.path.len();
    if let Some(changed) = changed_in_key_order(left_doc, &left, right_doc, &right) {
        for i in changed {
            ops.push_key(left[i].0.as_ref());
            diff_at(left_doc, left[i].1, left[i].2, right_doc, right[i].1, right[i].2, ops);
            ops.path.truncate(at);
        }
        return;
    }
    for members in [&mut left, &mut right] {
        if !members.windows(2).all(|w| w[0].0 < w[1].0) {
            members.sort_by(|a, b| a.0.cmp(&b.0));
        }
    }
    // Both sorted by key: one merge walk finds the common, added and removed keys.
    let mut removed = Vec::new();
    let (mut i, mut j) = (0, 0);
    while j < right.len() {
        let (key, r0, r1) = (&right[j].0, right[j].1, right[j].2);
        match left.get(i).map(|(k, _, _)| k.as_ref().cmp(key.as_ref())) {
            Some(std::cmp::Ordering::Less) => {
                removed.push(i);
                i += 1;
                continue;
            }
            Some(std::cmp::Ordering::Equal) => {
                ops.push_key(key.as_ref());
                diff_at(left_doc, left[i].1, left[i].2, right_doc, r0, r1, ops);
                ops.path.truncate(at);
                i += 1;
            }
            Some(std::cmp::Ordering::Greater) | None => {
                ops.push_key(key.as_ref());
                ops.with_value("add", right_doc, r0, r1);
                ops.path.truncate(at);
            }
        }
        j += 1;
    }
    removed.extend(i..left.len());
    for index in removed {
        ops.push_key(left[index].0.as_ref());
        ops.remove();
        ops.path.truncate(at);
    }
}

fn diff_array(left_doc: Doc<'_>, left: &[(usize, usize)], right_doc: Doc<'_>, right: &[(usize, usize)], ops: &mut Ops) {
    // The same walk as json_patch: pairwise, then removals at the shifting end, or additions.
    // An item whose text is unchanged gives no operation: it is skipped before its index is
    // written into the path (most items of a long array are).
    let at = ops.path.len();
    let mut shift = 0usize;
    for index in 0..left.len().max(right.len()) {
        match (left.get(index), right.get(index)) {
            (Some(&(l0, l1)), Some(&(r0, r1))) => {
                if left_doc.text(l0, l1) == right_doc.text(r0, r1) {
                    continue;
                }
                ops.push_index(index - shift);
                diff_at(left_doc, l0, l1, right_doc, r0, r1, ops);
            }
            (Some(_), None) => {
                ops.push_index(index - shift);
                shift += 1;
                ops.remove();
            }
            (None, Some(&(r0, r1))) => {
                ops.push_index(index - shift);
                ops.with_value("add", right_doc, r0, r1);
            }
            (None, None) => {}
        }
        ops.path.truncate(at);
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The members of the compact JSON object at `start..end` of `doc`, with unescaped keys, in text
/// order; `None` if it is not one.
fn object_members(doc: Doc<'_>, start: usize, end: usize) -> Option<Members<'_>> {
    let text = doc.view.text.as_str();
    let bytes = text.as_bytes();
    let mut members = Members::new();
    let mut at = start + 1;
    if bytes.get(at) == Some(&b'}') {
        return (at + 1 == end).then_some(members);
    }
    // The entry after the object's own is its first key's.
    let mut hint = doc.view.entry(start).map_or(0, |i| i + 1);
    loop {
        if bytes.get(at) != Some(&b'"') {
            return None;
        }
        let (key_end, after_key) = doc.view.value_end(at, hint)?;
        let raw_key = text.get(at + 1..key_end - 1)?;
        let key = if raw_key.contains('\\') {
            Cow::Owned(serde_json::from_str::<String>(text.get(at..key_end)?).ok()?)
        } else {
            Cow::Borrowed(raw_key)
        };
        if bytes.get(key_end) != Some(&b':') {
            return None;
        }
        let (value_end, after_value) = doc.view.value_end(key_end + 1, after_key)?;
        hint = after_value;
        members.push((key, key_end + 1, value_end));
        match bytes.get(value_end) {
            Some(b',') => at = value_end + 1,
            Some(b'}') if value_end + 1 == end => break,
            _ => return None,
        }
    }
    Some(members)
}

/// Where the items of the compact JSON array at `start..end` of `doc` lie; `None` if it is not
/// one.
fn array_items(doc: Doc<'_>, start: usize, end: usize) -> Option<Items> {
    let bytes = doc.view.text.as_bytes();
    let mut items = Items::new();
    let mut at = start + 1;
    if bytes.get(at) == Some(&b']') {
        return (at + 1 == end).then_some(items);
    }
    let mut hint = doc.view.entry(start).map_or(0, |i| i + 1);
    loop {
        let (item_end, after) = doc.view.value_end(at, hint)?;
        hint = after;
        items.push((at, item_end));
        match bytes.get(item_end) {
            Some(b',') => at = item_end + 1,
            Some(b']') if item_end + 1 == end => return Some(items),
            _ => return None,
        }
    }
}

/// Plays `games` random games of `descriptor` (seeds `0..games`) through the JSON interface and,
/// after setup and every action, checks for every viewer that [`diff_json`] of its previous and
/// new view text is exactly `json_patch::diff` of the two views as values, and that applying it
/// to the previous view gives the new one; that the parts of `view_texts` join to `view_text`;
/// and that the shared diffs a table sends ([`diff_parts_memo`] from the parts kept at the
/// previous step, [`diff_texts_memo`] of whole texts) are that same patch; that the view's text
/// in key order ([`ViewParts::value_text`]) is the view's as a `Value`; and that the state
/// hash written with the engine's memo, carried from step to step, is the plain one; and that each
/// waited-for seat's legal actions as text ([`crate::DynGame::legal_actions_json`]) read as its legal
/// actions. Returns the number of patches checked.
///
/// # Panics
/// On the first mismatch, naming the game, seed, step and viewer.
pub fn check_view_patches(descriptor: &dyn GameDescriptor, players: usize, options: &Value, games: u64) -> usize {
    let id = descriptor.info().id;
    let names = SeatNames::generic(players);
    let mut checked = 0;
    for seed in 0..games {
        let mut game = descriptor
            .create(players, options, Seed::from_u64(seed))
            .unwrap_or_else(|e| panic!("{id} ({players} players): setup failed: {e}"));
        let mut rng = GameRng::from_u64(seed ^ 0x7a7c_4e55);
        let viewers = Viewer::all(players);
        let mut texts: Vec<String> = viewers.iter().map(|v| game.view_json(*v)).collect();
        // As a live table keeps them: the engine's memo, carried from step to step, and each
        // viewer's view as the parts it was written in.
        let mut cache = ViewCache::default();
        let mut kept = game.view_texts(&viewers, &mut cache);
        let mut hash_cache = ViewCache::default();
        // An engine that writes its patches itself: its memo too, first filled with no patch.
        let mut patch_cache = ViewCache::default();
        let mut written = Vec::new();
        let writes = game.writes_patches();
        assert!(!game.view_patches(&viewers, &mut patch_cache, &mut written), "{id}: a patch with nothing before");
        // The diff memos too, cleared before each action's viewers (their buffers are reused).
        let (mut memo, mut whole_memo) = (DiffMemo::default(), DiffMemo::default());
        let mut step = 0;
        while game.outcome().is_none() {
            step += 1;
            assert!(step < 20_000, "{id} seed {seed}: no end");
            let to_act = game.to_act();
            for &s in &to_act {
                let written: Value = serde_json::from_str(&game.legal_actions_json(s))
                    .unwrap_or_else(|e| panic!("{id} seed {seed} step {step}: legal actions are not JSON: {e}"));
                assert_eq!(written, Value::from(game.legal_actions(s)), "{id} seed {seed} step {step}: legal actions");
            }
            let seat = *rng.choose(&to_act).unwrap_or_else(|| panic!("{id} seed {seed}: waits for nobody"));
            let legal = game.legal_actions(seat);
            let action = rng.choose(&legal).unwrap_or_else(|| panic!("{id} seed {seed}: no legal action")).clone();
            game.apply(seat, &action, &names).unwrap_or_else(|e| panic!("{id} seed {seed}: rejected {action}: {e}"));
            assert_eq!(
                game.state_hash_cached(&mut hash_cache),
                game.state_hash(),
                "{id} seed {seed} step {step}: the state hash written with the memo differs"
            );
            // As a table asks: every viewer, or only those watched (a third of the steps, one
            // viewer fewer): the patches of the next step are from this step's views all the same.
            let asked: Vec<Viewer> = match step % 3 {
                0 => viewers.iter().copied().skip(1 + step % viewers.len().max(1)).collect(),
                _ => viewers.clone(),
            };
            let engine_wrote = game.view_patches(&asked, &mut patch_cache, &mut written);
            assert_eq!(engine_wrote, writes, "{id} seed {seed} step {step}: view_patches");
            assert_eq!(written.len(), if writes { asked.len() } else { 0 }, "{id} seed {seed} step {step}: patches");
            memo.clear();
            whole_memo.clear();
            let all = game.view_texts(&viewers, &mut cache);
            for (((viewer, old_text), old_parts), parts) in viewers.iter().zip(texts.iter_mut()).zip(&mut kept).zip(all)
            {
                let joined = parts.join();
                assert_eq!(
                    joined,
                    game.view_text(*viewer),
                    "{id} seed {seed} step {step} {viewer:?}: view_texts differs from view_text"
                );
                assert_eq!(
                    Some(parts.value_text()),
                    serde_json::to_string(&parse(joined.as_str())).ok(),
                    "{id} seed {seed} step {step} {viewer:?}: the view's text in key order is not the view's as a Value"
                );
                let new_text = game.view_json(*viewer);
                let shared = diff_parts_memo(old_parts, &parts, &mut memo);
                let whole = diff_texts_memo(&ViewText::new(old_text.clone()), &joined, &mut whole_memo);
                // A view kept whole (a snapshot's) against parts: joined and diffed whole.
                let mixed =
                    diff_parts_memo(&ViewParts::whole(ViewText::new(old_text.clone())), &parts, &mut whole_memo);
                *old_parts = parts;
                assert_eq!(
                    game.view_text(*viewer),
                    ViewText::new(new_text.clone()),
                    "{id} seed {seed} step {step} {viewer:?}: the index written with the view is not the scanned one"
                );
                let (old, new) = (parse(old_text), parse(&new_text));
                assert_eq!(new, game.view(*viewer), "{id} seed {seed} step {step}: view_json is not the view");
                let fast = diff_json(old_text, &new_text);
                let reference = json_patch::diff(&old, &new);
                assert_eq!(
                    serde_json::to_string(&fast).ok(),
                    serde_json::to_string(&reference).ok(),
                    "{id} seed {seed} step {step} {viewer:?}: the patch differs from json_patch::diff"
                );
                for (how, patch) in [("parts", shared), ("whole", whole), ("whole against parts", mixed)] {
                    assert_eq!(
                        Some(patch),
                        serde_json::to_string(&fast).ok(),
                        "{id} seed {seed} step {step} {viewer:?}: the shared diff ({how}) differs"
                    );
                }
                if let Some(at) = asked.iter().position(|v| v == viewer).filter(|_| writes) {
                    assert_eq!(
                        serde_json::to_string(&fast).ok().as_ref(),
                        written.get(at),
                        "{id} seed {seed} step {step} {viewer:?}: the engine's own patch differs"
                    );
                }
                let mut patched = old;
                json_patch::patch(&mut patched, &fast)
                    .unwrap_or_else(|e| panic!("{id} seed {seed} step {step} {viewer:?}: patch fails: {e}"));
                assert_eq!(patched, new, "{id} seed {seed} step {step} {viewer:?}: the patch does not give the view");
                *old_text = new_text;
                checked += 1;
            }
        }
    }
    checked
}

#[cfg(test)]
mod tests {
    use super::*;
    use json_patch::PatchOperation;
    use serde_json::json;

    fn same_as_reference(old: &Value, new: &Value) {
        same_text_as_reference(&old.to_string(), &new.to_string());
    }

    /// The patch text equals serde_json's text of json_patch's patch, byte for byte.
    fn same_text_as_reference(old: &str, new: &str) {
        let reference = serde_json::to_string(&json_patch::diff(&parse(old), &parse(new))).unwrap();
        let (o, n) = (ViewText::new(old.to_owned()), ViewText::new(new.to_owned()));
        assert_eq!(diff_text(&o, &n), reference, "{old} -> {new}");
        assert_eq!(serde_json::to_string(&diff_texts(&o, &n)).unwrap(), reference, "{old} -> {new}");
        assert_eq!(diff_texts_memo(&o, &n, &mut DiffMemo::default()), reference, "{old} -> {new}");
    }

    #[test]
    fn a_string_is_escaped_as_serde_json_escapes_it() {
        // Every ASCII character alone, between others, and next to characters of 2 to 4 bytes.
        let mut texts: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
        texts.extend((0u8..0x80).map(|b| format!("é{}ab\u{2014}{}🜲", char::from(b), char::from(b))));
        texts.extend(["", "plain words", "\"quoted\" and \\ back\\slashed", "\u{7f}\u{80}\u{ffff}"].map(String::from));
        // Runs of plain text (eight bytes are looked at in one step) of every length up to three
        // steps, with each escaped character at each place in them, and a character of two bytes
        // across the steps' edges.
        for len in 0..24 {
            let plain: String = "abcdefghijklmnopqrstuvwxyz".chars().take(len).collect();
            texts.push(plain.clone());
            texts.push(format!("{plain}é{plain}"));
            for at in 0..=len {
                for escaped in ['"', '\\', '\n', '\u{0}', '\u{1f}', '\u{7f}', ' ', '\u{a0}'] {
                    texts.push(format!("{}{escaped}{}", &plain[..at], &plain[at..]));
                }
            }
        }
        for text in &texts {
            let mut written = String::new();
            push_json_string(&mut written, text);
            assert_eq!(written, serde_json::to_string(text).unwrap(), "{text:?}");
        }
    }

    #[test]
    fn a_view_is_written_whole_as_a_value_writes_it() {
        // Two parts (struct text: members in declaration order), nested objects and arrays,
        // floats, escapes, large numbers and an empty object and array.
        let parts = ViewParts::new([
            Arc::new(ViewText::new(r#"{"zeta":[3,{"b":1,"a":2.50}],"alpha":"x\u0041\n","mid":{}}"#.to_owned())),
            Arc::new(ViewText::new(
                r#"{"beta":[],"big":18446744073709551615,"neg":-7,"e":1e3,"k\"q":null}"#.to_owned(),
            )),
        ]);
        let value = parse(parts.join().as_str());
        assert!(value.is_object());
        assert_eq!(parts.value_text(), serde_json::to_string(&value).unwrap());
        for text in ["", "[]", "{}", "1", "[1,{\"b\":0,\"a\":true}]", "not json"] {
            let one = ViewParts::whole(ViewText::new(text.to_owned()));
            assert_eq!(one.value_text(), serde_json::to_string(&parse(text)).unwrap(), "{text:?}");
        }
    }

    #[test]
    fn only_what_a_value_writes_alike_is_copied_whole() {
        let copied = [
            "[]",
            "{}",
            "[1,-2,30,[4,[]],\"x y\",true,false,null]",
            r#"{"a":[1,2],"b":"é","c":null}"#,
            r#"{"1":true,"10":true,"9":true}"#,
            "[999999999999999999,-999999999999999999]",
        ];
        let not_copied = [
            // Nested objects, keys out of order or repeated, escapes, floats, large or
            // zero-led numbers, whitespace, and text that is not JSON.
            "[{}]",
            r#"{"a":{}}"#,
            r#"{"b":1,"a":2}"#,
            r#"{"a":1,"a":2}"#,
            r#"["a\n"]"#,
            r#"{"a\"b":1}"#,
            "[1.0]",
            "[1e3]",
            "[-0]",
            "[01]",
            "[1000000000000000000]",
            "[1, 2]",
            "[1,,2]",
            "[1,]",
            "[,1]",
            "[tru]",
            "[nul]",
            "{\"a\"}",
            r#"{"a":1,}"#,
            "[1]]",
            "[[1]",
            "{]",
            "[\"\u{1}\"]",
        ];
        for text in copied {
            assert!(verbatim(text.as_bytes()), "{text}");
        }
        for text in not_copied {
            assert!(!verbatim(text.as_bytes()), "{text}");
        }
        // (What is not JSON at all no engine writes: only JSON is compared.)
        for text in copied.iter().chain(&not_copied).filter(|t| serde_json::from_str::<Value>(t).is_ok()) {
            let one = ViewParts::whole(ViewText::new((*text).to_owned()));
            assert_eq!(one.value_text(), serde_json::to_string(&parse(text)).unwrap(), "{text}");
        }
    }

    #[test]
    fn an_integer_is_written_as_serde_json_writes_it() {
        let mut numbers = vec![i64::MIN, i64::MIN + 1, i64::MAX, -10, -9, -1, 0, 1, 9, 10, 11, 99, 100, 12_345];
        numbers.extend((0..19).map(|p| 10i64.pow(p)).flat_map(|n| [n - 1, n, n + 1, -n]));
        for n in numbers {
            let mut written = String::from("x");
            push_int(&mut written, n);
            assert_eq!(written, format!("x{}", serde_json::to_string(&n).unwrap()), "{n}");
        }
        let mut written = String::new();
        push_uint(&mut written, u64::MAX);
        assert_eq!(written, u64::MAX.to_string());
    }

    #[test]
    fn values_are_written_as_a_value_writes_them() {
        // Struct text (members in declaration order), floats, escapes and large numbers, as
        // added or replaced values: each patch is serde_json's text of json_patch's.
        let cases = [
            (r#"{"a":[]}"#, r#"{"a":[{"z":1,"b":{"y":[{"q":1,"p":2}],"x":"\"\\"},"a":null}]}"#),
            (r#"{"a":1}"#, r#"{"a":{"k":1.50,"j":-0.0,"i":1e3,"h":12345678901234567890}}"#),
            (r#"{"a":-0.0}"#, r#"{"a":0.0}"#),
            (r#"{"a":0}"#, r#"{"a":-0}"#),
            (r#"{"a":1}"#, r#"{"a":1.0}"#),
            (r#"{"a":"\u0041"}"#, r#"{"a":"\u0042"}"#),
            (r#"{"a":"x"}"#, r#"{"a":"\u0078"}"#),
            (r#"{"a":"\/"}"#, r#"{"a":"/"}"#),
            (r#"{"a":"\b\f\n\u0001é"}"#, r#"{"a":"\u0008\u000c\n\u0001é!"}"#),
            (r#"{"k~/\"\u0001":1}"#, r#"{"k~/\"\u0001":2,"é/~":[1]}"#),
            (r#"{"\u0061":1}"#, r#"{"a":2}"#),
            (r#"{"a":null}"#, r#"{"a":{"y":1,"x":2}}"#),
            (r#"{"a":{"y":1,"x":2}}"#, r#"{"a":null}"#),
            (r#"{"a":true}"#, r#"{"a":[false,null,"s"]}"#),
            (r#"{"a":{"x":1,"x":2}}"#, r#"{"b":{"x":1,"x":2}}"#),
            (r#"[1,2,3]"#, r#"[{"b":1,"a":2},2]"#),
        ];
        for (old, new) in cases {
            same_text_as_reference(old, new);
            same_text_as_reference(new, old);
        }
    }

    #[test]
    fn patches_equal_json_patch_diff_on_edge_cases() {
        let cases = [
            (json!({"a": 1, "b": [1, 2, 3], "c": {"x": "y"}}), json!({"a": 2, "b": [1], "d": null})),
            (json!([1, [2, 3], {"k": "v"}]), json!([1, [2, 3, 4], {"k": "w", "l": []}, "new"])),
            (json!({"we\"ird/key~": 1, "z": "a,b}]"}), json!({"we\"ird/key~": 2, "z": "a,b}]\"", "\\": 1})),
            (json!({"a": {"b": 1}}), json!({"a": [1]})),
            (json!({}), json!({"a": {}})),
            (json!([]), json!([[]])),
            (json!("x"), json!({"a": 1})),
            (json!(null), json!(false)),
            (json!({"a": 1.5, "b": -3}), json!({"a": 1.25, "b": -3})),
            (json!({"b": 1, "a": 2}), json!({"a": 2})),
            // Long arrays: indexes of two and three digits, unchanged items between changed ones.
            (json!((0..120).collect::<Vec<_>>()), json!((0..120).filter(|i| i % 37 != 5).collect::<Vec<_>>())),
            (
                json!((0..15).collect::<Vec<_>>()),
                json!((0..15).map(|i| if i == 10 { 99 } else { i }).collect::<Vec<_>>()),
            ),
        ];
        for (old, new) in &cases {
            same_as_reference(old, new);
            same_as_reference(new, old);
        }
    }

    #[test]
    fn struct_fields_in_declaration_order_are_diffed_in_key_order() {
        // Structs serialise their fields in declaration order; the patch must still follow the
        // sorted key order a `Value` has.
        let old = r#"{"zeta":1,"alpha":[1,2],"mid":{"y":1,"b":2}}"#;
        let new = r#"{"zeta":2,"alpha":[1],"mid":{"y":3,"b":2,"a":0}}"#;
        let reference = json_patch::diff(&parse(old), &parse(new));
        assert_eq!(diff_json(old, new), reference);
        assert_eq!(reference.0.len(), 4);
    }

    #[test]
    fn joined_objects_are_indexed_as_if_scanned() {
        let parts = [
            json!({"viewer": 1}),
            json!({}),
            json!({"seats": [{"a": [1, 2], "b": "x\"y"}, {}], "n": null}),
            json!({"z": {"deep": [[], {"k": "v"}]}}),
        ];
        let texts: Vec<ViewText> = parts.iter().map(ViewText::serialize).collect();
        let refs: Vec<&ViewText> = texts.iter().collect();
        let joined = ViewText::join_objects(&refs);
        let expected = r#"{"viewer":1,"n":null,"seats":[{"a":[1,2],"b":"x\"y"},{}],"z":{"deep":[[],{"k":"v"}]}}"#;
        assert_eq!(joined.as_str(), expected);
        assert_eq!(joined, ViewText::new(expected.to_owned()));
        assert_eq!(ViewText::join_objects(&[]), ViewText::new("{}".to_owned()));
        assert_eq!(ViewText::join_objects(&[&texts[1]]), ViewText::new("{}".to_owned()));
        // A part that is not an object goes in as it is, and the whole is scanned.
        let odd = ViewText::new("[1]".to_owned());
        assert_eq!(ViewText::join_objects(&[&texts[0], &odd]), ViewText::new(r#"{"viewer":1[1]}"#.to_owned()));
    }

    #[test]
    fn text_that_is_not_json_is_replaced_as_a_whole() {
        for (old, new) in [(r#"{"a":1"#, r#"{"a":2}"#), (r#"{"a":"x}"#, r#"[1]"#), (r#"{"a":[1}]"#, r#"{"a":[1]}"#)] {
            let patch = diff_json(old, new);
            assert_eq!(patch.0.len(), 1, "{old} -> {new}: {patch:?}");
            assert!(
                matches!(&patch.0[0], PatchOperation::Replace(r) if r.path.as_str().is_empty() && r.value == parse(new))
            );
        }
    }

    #[test]
    fn an_indexed_text_serves_as_new_then_as_old() {
        let texts = [
            r#"{"a":[1,{"b":"x\"y"}],"c":{}}"#,
            r#"{"a":[1,{"b":"z"},3],"c":{"d":null}}"#,
            r#"{"a":[],"c":{"d":[{}]}}"#,
        ];
        let views: Vec<ViewText> = texts.iter().map(|t| ViewText::new((*t).to_owned())).collect();
        for pair in views.windows(2) {
            let reference = json_patch::diff(&parse(pair[0].as_str()), &parse(pair[1].as_str()));
            assert_eq!(diff_texts(&pair[0], &pair[1]), reference);
            assert!(!reference.0.is_empty());
        }
    }

    #[test]
    fn the_index_written_with_a_value_is_the_scanned_one() {
        let mut by_number = std::collections::BTreeMap::new();
        by_number.insert(3u32, vec!["a\"b", "", "\\"]);
        by_number.insert(10u32, vec![]);
        let values = [
            json!({"we\"ird/key~": [1, {}, [], {"x": [null, true, -1.5]}], "": "é\u{1}"}),
            json!([]),
            json!("plain"),
            json!(7),
            serde_json::to_value(&by_number).unwrap(),
        ];
        for value in &values {
            let written = ViewText::serialize(value);
            assert_eq!(written.as_str(), serde_json::to_string(value).unwrap());
            assert_eq!(written, ViewText::new(written.as_str().to_owned()), "{value}");
        }
        let typed = ViewText::serialize(&by_number);
        assert_eq!(typed, ViewText::new(serde_json::to_string(&by_number).unwrap()));
        assert!(typed.ends.len() > 5);
    }

    #[test]
    fn a_memo_used_again_after_clear_gives_each_action_its_own_patches() {
        // Actions of different sizes one after another, through one memo cleared between them
        // (as a table does): the entries and buffers kept from a larger action must not leak.
        let views = [
            r#"{"a":[1,2,3],"b":{"x":1,"y":[true]},"c":"s","d":0}"#,
            r#"{"a":[1],"b":{"x":2,"y":[]},"c":"t","d":1}"#,
            r#"{"a":[1],"b":{"x":2,"y":[]},"c":"t","d":2}"#,
            r#"{"a":[4,5,6,7],"b":{"x":"long text that needs a larger buffer than before"},"c":null,"d":2}"#,
            r#"{"a":[4,5,6,7],"b":{"x":"long text that needs a larger buffer than before"},"c":null,"d":2}"#,
            r#"{"a":[],"b":{},"c":"u","d":3}"#,
        ];
        let mut memo = DiffMemo::default();
        for pair in views.windows(2) {
            memo.clear();
            let (old, new) = (ViewText::new(pair[0].to_owned()), ViewText::new(pair[1].to_owned()));
            let expected = serde_json::to_string(&json_patch::diff(&parse(pair[0]), &parse(pair[1]))).unwrap();
            // Two viewers with the same views: the second reads the first's entries.
            assert_eq!(diff_texts_memo(&old, &new, &mut memo), expected, "{} -> {}", pair[0], pair[1]);
            assert_eq!(diff_texts_memo(&old, &new, &mut memo), expected);
        }
        assert!(memo.entries.len() >= 4, "entries are kept for their buffers");
    }

    #[test]
    fn viewers_sharing_members_get_the_same_patches_as_alone() {
        // Two viewers of one action: the board changes alike for both, the hands differ.
        let old = [r#"{"board":[1,2],"hand":[5],"me":0}"#, r#"{"board":[1,2],"hand":[7],"me":1}"#];
        let new = [r#"{"board":[1,3,4],"hand":[],"me":0}"#, r#"{"board":[1,3,4],"hand":[7,8],"me":1}"#];
        let mut memo = DiffMemo::default();
        for (o, n) in old.iter().zip(&new) {
            let shared = diff_texts_memo(&ViewText::new((*o).to_owned()), &ViewText::new((*n).to_owned()), &mut memo);
            assert_eq!(shared, serde_json::to_string(&json_patch::diff(&parse(o), &parse(n))).unwrap(), "{o} -> {n}");
        }
        // A member whose text changes without its value changing gives no operation.
        let (o, n) = (r#"{"a":1.0,"b":1}"#, r#"{"a":1.00,"b":2}"#);
        assert_eq!(
            diff_texts_memo(&ViewText::new(o.into()), &ViewText::new(n.into()), &mut DiffMemo::default()),
            r#"[{"op":"replace","path":"/b","value":2}]"#
        );
        assert_eq!(memo.used().len(), 3, "the board once, each hand once");
        assert_eq!(memo.used().iter().filter(|e| e.key == "board").count(), 1);
        // Different key sets fall back to the plain diff.
        let (o, n) = (r#"{"a":1}"#, r#"{"a":1,"b":2}"#);
        assert_eq!(
            diff_texts_memo(&ViewText::new(o.into()), &ViewText::new(n.into()), &mut memo),
            serde_json::to_string(&json_patch::diff(&parse(o), &parse(n))).unwrap()
        );
    }

    /// A viewer whose views pair the same parts as the last viewer's (its own unchanged part
    /// aside) gets that viewer's patch copied; a viewer pairing any other part, or changing a
    /// part the last viewer kept, or whose views are joined whole, is diffed; and nothing is
    /// carried past `clear`. Every patch is `json_patch::diff`'s.
    #[test]
    fn a_viewer_pairing_the_last_viewers_parts_gets_its_patch() {
        let part = |text: String| Arc::new(ViewText::new(text));
        let view = |parts: &[&Arc<ViewText>]| ViewParts::new(parts.iter().map(|p| Arc::clone(p)));
        let head = |n: u8| part(format!(r#"{{"viewer":{n}}}"#));
        let (board, board2) = (part(r#"{"board":[1,2]}"#.into()), part(r#"{"board":[1,3]}"#.into()));
        let (hand, hand2, hand3) =
            (part(r#"{"hand":[5]}"#.into()), part(r#"{"hand":[]}"#.into()), part(r#"{"hand":[6]}"#.into()));
        let (h0, h1, h2) = (head(0), head(1), head(2));
        let mut memo = DiffMemo::default();
        let diff = |old: &ViewParts, new: &ViewParts, memo: &mut DiffMemo, copied: bool| {
            assert_eq!(memo.last.same(old, new), copied, "{old:?} -> {new:?}");
            let patch = diff_parts_memo(old, new, memo);
            let (o, n) = (parse(old.join().as_str()), parse(new.join().as_str()));
            assert_eq!(patch, serde_json::to_string(&json_patch::diff(&o, &n)).unwrap(), "{o} -> {n}");
            patch
        };
        let first = diff(&view(&[&h0, &board, &hand]), &view(&[&h0, &board2, &hand2]), &mut memo, false);
        assert_eq!(first, r#"[{"op":"replace","path":"/board/1","value":3},{"op":"remove","path":"/hand/0"}]"#);
        let second = diff(&view(&[&h1, &board, &hand]), &view(&[&h1, &board2, &hand2]), &mut memo, true);
        assert_eq!(second, first);
        // The hand kept (the same part before and after), where the last viewer's changed.
        let kept = diff(&view(&[&h1, &board, &hand]), &view(&[&h1, &board2, &hand]), &mut memo, false);
        assert_eq!(kept, r#"[{"op":"replace","path":"/board/1","value":3}]"#);
        // Another hand; then the head changing where the last viewer's was kept.
        diff(&view(&[&h0, &board, &hand]), &view(&[&h0, &board2, &hand3]), &mut memo, false);
        diff(&view(&[&h1, &board, &hand]), &view(&[&h2, &board2, &hand3]), &mut memo, false);
        diff(&view(&[&h2, &board, &hand]), &view(&[&h1, &board2, &hand3]), &mut memo, false);
        // Joined whole (the parts do not line up): no view to copy from after it.
        diff(
            &ViewParts::whole(ViewText::new(r#"{"viewer":1,"board":[1,2],"hand":[5]}"#.into())),
            &view(&[&h1, &board2, &hand3]),
            &mut memo,
            false,
        );
        diff(&view(&[&h1, &board, &hand]), &view(&[&h1, &board2, &hand3]), &mut memo, false);
        diff(&view(&[&h0, &board, &hand]), &view(&[&h0, &board2, &hand3]), &mut memo, true);
        memo.clear();
        diff(&view(&[&h0, &board, &hand]), &view(&[&h0, &board2, &hand3]), &mut memo, false);
    }

    #[test]
    fn equal_texts_give_an_empty_patch() {
        assert!(diff_json(r#"{"a":[1,2]}"#, r#"{"a":[1,2]}"#).0.is_empty());
    }

    /// `PatchOps` writes what `json_patch::diff` finds: arrays growing and shrinking, a changed
    /// item, an object's added and removed keys in sorted order.
    #[test]
    fn patch_ops_write_json_patch_diff() {
        let number = |out: &mut String, n: &i64| push_int(out, *n);
        let cases: [(&[i64], &[i64]); 4] = [(&[1, 2], &[1, 3, 4]), (&[1, 2, 3], &[5]), (&[], &[-7]), (&[4], &[4])];
        for (old, new) in cases {
            let mut ops = PatchOps::default();
            ops.member("a");
            ops.items(old, new, |ops, _, n| ops.replace(|out| push_int(out, *n)), number);
            let (o, n) = (json!({ "a": old }), json!({ "a": new }));
            let mut memo = DiffMemo::default();
            let (start, end) = memo.push_members(&ops.finish());
            let patch = memo.patch(&memo.pair_entries[start..end]);
            assert_eq!(patch, serde_json::to_string(&json_patch::diff(&o, &n)).unwrap(), "{o} -> {n}");
        }
        let mut ops = PatchOps::default();
        ops.member("keys");
        for (key, add) in [("10", true), ("9", true), ("2", false)] {
            ops.at_key(key, |ops| {
                if add {
                    ops.add(|out| out.push_str("true"));
                } else {
                    ops.remove();
                }
            });
        }
        let (o, n) = (json!({"keys": {"2": true, "3": true}}), json!({"keys": {"3": true, "9": true, "10": true}}));
        let mut memo = DiffMemo::default();
        let (start, end) = memo.push_members(&ops.finish());
        let patch = memo.patch(&memo.pair_entries[start..end]);
        assert_eq!(patch, serde_json::to_string(&json_patch::diff(&o, &n)).unwrap());
    }

    /// A part written with its patch from the old part is diffed by that patch (not by its
    /// text) for a viewer holding that old part, and as text for any other.
    #[test]
    fn a_derived_part_is_diffed_by_its_patch_only_from_its_own_old_part() {
        let old = Arc::new(ViewText::new(r#"{"n":1}"#.to_owned()));
        let other_old = Arc::new(ViewText::new(r#"{"n":1}"#.to_owned()));
        let mut ops = PatchOps::default();
        ops.member("n");
        // Not the true patch (that would be 2): shows which way the diff went.
        ops.replace(|out| out.push_str("99"));
        let new = Arc::new(ViewText::new(r#"{"n":2}"#.to_owned()).derived_from(&old, ops.finish()));
        let mut memo = DiffMemo::default();
        let parts = |p: &Arc<ViewText>| ViewParts::new([Arc::clone(p)]);
        assert_eq!(
            diff_parts_memo(&parts(&old), &parts(&new), &mut memo),
            r#"[{"op":"replace","path":"/n","value":99}]"#
        );
        assert_eq!(
            diff_parts_memo(&parts(&other_old), &parts(&new), &mut memo),
            r#"[{"op":"replace","path":"/n","value":2}]"#
        );
        assert_eq!(*new, ViewText::new(r#"{"n":2}"#.to_owned()), "the patch is not part of the text");
    }
}
