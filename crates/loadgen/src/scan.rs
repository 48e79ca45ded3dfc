//! Reads the few fields of a server frame the load generator uses, and skips the rest (the patch,
//! the events and their texts) without building or validating it.
//!
//! The generator reads four or five frames per action. Read with serde (a borrowed struct, the
//! rest ignored), a frame cost more than a microsecond, ~18% of the generator's CPU in a profile
//! of 200 saturated games, most of it in `ignore_value` and in taking the patch as a raw value to
//! measure it. The server writes these frames with serde_json, so they are well-formed: this
//! reader checks the structure it walks (object, keys, separators) and the fields it reads, and
//! skips a value by its brackets and strings alone, jumping over string contents with `memchr`.
//! The tests compare it with serde's reading of the same frames.

use anyhow::{bail, Context};

/// The fields of a server message the load generator reads, borrowed from the frame's text.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Msg<'a> {
    pub kind: &'a str,
    pub version: Option<u64>,
    pub seat: Option<u64>,
    /// The seats the game waits for, as a bit set (seats 0 to 63).
    pub to_act: Option<u64>,
    /// The seat's legal actions, as the JSON text the server sent (`None` when absent or null).
    pub legal_actions: Option<&'a str>,
    /// Whether the frame carries an outcome (present and not null).
    pub outcome: bool,
    /// The size of the RFC 6902 patch itself, in bytes (0 when the frame has none, or null).
    pub patch_len: usize,
}

/// Reads `text`, a server frame (one JSON object).
pub fn read(text: &str) -> anyhow::Result<Msg<'_>> {
    let mut r = Reader { s: text.as_bytes(), text, at: 0 };
    let mut msg = Msg::default();
    let mut kind = None;
    r.expect(b'{')?;
    if r.peek()? == b'}' {
        bail!("an empty object");
    }
    loop {
        let key = r.string()?;
        r.expect(b':')?;
        r.blank();
        match key {
            "type" => kind = Some(r.string()?),
            "version" => msg.version = r.optional_u64()?,
            "seat" => msg.seat = r.optional_u64()?,
            "to_act" => msg.to_act = r.seat_bits()?,
            "legal_actions" => msg.legal_actions = r.optional_raw()?,
            "outcome" => msg.outcome = r.optional_raw()?.is_some(),
            "patch" => msg.patch_len = r.optional_raw()?.map_or(0, str::len),
            _ => {
                r.raw()?;
            }
        }
        match r.next()? {
            b',' => continue,
            b'}' => break,
            other => bail!("expected , or }} at byte {}, found {:?}", r.at - 1, other as char),
        }
    }
    r.blank();
    if r.at != r.s.len() {
        bail!("text after the object at byte {}", r.at);
    }
    msg.kind = kind.context("no type")?;
    Ok(msg)
}

/// The game `text` (a server frame) is about: its `game` member, read without the rest (the
/// server writes it second, after `type`); `None` when the frame names no game.
pub fn game_of(text: &str) -> anyhow::Result<Option<&str>> {
    let mut r = Reader { s: text.as_bytes(), text, at: 0 };
    r.expect(b'{')?;
    if r.peek()? == b'}' {
        return Ok(None);
    }
    loop {
        let key = r.string()?;
        r.expect(b':')?;
        r.blank();
        if key == "game" {
            return if r.is_null() { Ok(None) } else { r.string().map(Some) };
        }
        r.raw()?;
        match r.next()? {
            b',' => continue,
            b'}' => return Ok(None),
            other => bail!("expected , or }} at byte {}, found {:?}", r.at - 1, other as char),
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn blank(&mut self) {
        while self.s.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    /// The next byte that is not blank, not consumed.
    fn peek(&mut self) -> anyhow::Result<u8> {
        self.blank();
        self.s.get(self.at).copied().context("the frame ends early")
    }

    /// The next byte that is not blank, consumed.
    fn next(&mut self) -> anyhow::Result<u8> {
        let b = self.peek()?;
        self.at += 1;
        Ok(b)
    }

    fn expect(&mut self, want: u8) -> anyhow::Result<()> {
        let at = self.at;
        let got = self.next()?;
        if got != want {
            bail!("expected {:?} at byte {at}, found {:?}", want as char, got as char);
        }
        Ok(())
    }

    /// Past the closing quote of the string whose opening quote is at `self.at - 1`.
    fn end_of_string(&mut self) -> anyhow::Result<()> {
        self.at = string_end(self.s, self.at).context("an unterminated string")?;
        Ok(())
    }

    /// A string without escapes (keys and message types), borrowed.
    fn string(&mut self) -> anyhow::Result<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        self.end_of_string()?;
        let inner = &self.text[start..self.at - 1];
        if inner.contains('\\') {
            bail!("an escaped key or type at byte {start}");
        }
        Ok(inner)
    }

    fn is_null(&mut self) -> bool {
        if self.s[self.at..].starts_with(b"null") {
            self.at += 4;
            true
        } else {
            false
        }
    }

    fn optional_u64(&mut self) -> anyhow::Result<Option<u64>> {
        if self.is_null() {
            return Ok(None);
        }
        let start = self.at;
        while self.s.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        self.text[start..self.at].parse().map(Some).with_context(|| format!("a number at byte {start}"))
    }

    /// A list of seats as a bit set, or null.
    fn seat_bits(&mut self) -> anyhow::Result<Option<u64>> {
        if self.is_null() {
            return Ok(None);
        }
        self.expect(b'[')?;
        let mut bits = 0u64;
        if self.peek()? == b']' {
            self.at += 1;
            return Ok(Some(bits));
        }
        loop {
            self.blank();
            let seat = self.optional_u64()?.context("a null seat")?;
            if seat >= 64 {
                bail!("seat {seat} is beyond 63");
            }
            bits |= 1 << seat;
            match self.next()? {
                b',' => continue,
                b']' => return Ok(Some(bits)),
                other => bail!("expected , or ] in a list of seats, found {:?}", other as char),
            }
        }
    }

    /// The text of the value that starts here, or `None` for null.
    fn optional_raw(&mut self) -> anyhow::Result<Option<&'a str>> {
        if self.is_null() {
            return Ok(None);
        }
        self.raw().map(Some)
    }

    /// The text of the value that starts here, skipped by its brackets and strings.
    fn raw(&mut self) -> anyhow::Result<&'a str> {
        let start = self.at;
        match self.s.get(self.at).context("a value is missing")? {
            b'"' => {
                self.at += 1;
                self.end_of_string()?;
            }
            b'{' | b'[' => self.at = container_end(self.s, self.at).context("an unclosed array or object")?,
            _ => {
                while self.s.get(self.at).is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
                {
                    self.at += 1;
                }
                if self.at == start {
                    bail!("a value is missing at byte {start}");
                }
            }
        }
        Ok(&self.text[start..self.at])
    }
}

/// Where the string whose contents start at `at` ends (past its closing quote). Most strings in a
/// frame are a few bytes long (patch operations, paths, keys), which a plain loop finds sooner
/// than setting up a vector search; longer ones (event texts) go to `memchr`.
fn string_end(s: &[u8], mut at: usize) -> Option<usize> {
    let short = s.len().min(at + 24);
    while at < short {
        match s[at] {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
    loop {
        let rest = s.get(at..)?;
        let i = memchr::memchr2(b'"', b'\\', rest)?;
        if rest[i] == b'"' {
            return Some(at + i + 1);
        }
        at += i + 2; // a backslash and the byte it escapes
    }
}

/// Bytes a skip stops at: 1 for a quote, 2 for an opening bracket, 3 for a closing one.
const STOPS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = 1;
    t[b'{' as usize] = 2;
    t[b'[' as usize] = 2;
    t[b'}' as usize] = 3;
    t[b']' as usize] = 3;
    t
};

/// Where the array or object that opens at `at` ends (past its closing bracket).
fn container_end(s: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        let stop = s.get(at..)?.iter().position(|b| STOPS[*b as usize] != 0)?;
        at += stop + 1;
        match STOPS[s[at - 1] as usize] {
            1 => at = string_end(s, at)?,
            2 => depth += 1,
            _ => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::{json, Value};

    /// The reference: the same fields read by serde, as the generator read them before.
    #[derive(Deserialize)]
    struct Serde<'a> {
        #[serde(rename = "type", borrow)]
        kind: &'a str,
        version: Option<u64>,
        seat: Option<u64>,
        to_act: Option<Vec<u64>>,
        #[serde(borrow)]
        legal_actions: Option<&'a serde_json::value::RawValue>,
        outcome: Option<serde::de::IgnoredAny>,
        #[serde(borrow)]
        patch: Option<&'a serde_json::value::RawValue>,
    }

    fn by_serde(text: &str) -> Msg<'_> {
        let s: Serde<'_> = serde_json::from_str(text).expect("serde reads it");
        Msg {
            kind: s.kind,
            version: s.version,
            seat: s.seat,
            to_act: s.to_act.map(|seats| seats.iter().fold(0, |bits, seat| bits | 1 << seat)),
            legal_actions: s.legal_actions.map(|l| l.get()),
            outcome: s.outcome.is_some(),
            patch_len: s.patch.map_or(0, |p| p.get().len()),
        }
    }

    fn frames() -> Vec<String> {
        let awkward = "a \"quoted\" name, a back\\slash, braces {[}] and ünïcødé \u{1}";
        let patch = json!([
            {"op": "replace", "path": "/deck_count", "value": 84},
            {"op": "add", "path": "/log/-", "value": {"text": awkward, "n": [1, -2.5e3, true, null]}},
            {"op": "remove", "path": "/hands/0/3"},
        ]);
        let mut out = vec![
            json!({"type": "patch", "game": "g", "version": 7, "seat": 3, "patch": patch,
                "events": [{"data": {"type": "picked", "seat": 3}, "text": awkward, "private": false}],
                "to_act": [0, 3], "legal_actions": [{"type": "keep", "card": 72}], "seed": null, "outcome": null}),
            json!({"type": "patch", "game": "g", "version": 9, "seat": null, "patch": [], "events": [],
                "to_act": [], "legal_actions": [], "seed": "00ff", "outcome": {"winners": [1], "text": awkward}}),
            json!({"type": "snapshot", "game": "g", "version": 0, "seat": 1, "view": {"a": [[[]]], "b": {}, "c": ""},
                "to_act": [1, 63], "legal_actions": null}),
            json!({"type": "ack", "req": 1, "game": "g", "version": 8}),
            json!({"type": "welcome", "account": {"id": "x", "name": awkward}}),
            json!({"type": "error", "code": "proto/rate_limited", "message": awkward}),
        ]
        .into_iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>();
        // The same frames written with blanks between every token.
        let pretty: Vec<String> = out
            .iter()
            .map(|f| serde_json::to_string_pretty(&serde_json::from_str::<Value>(f).expect("json")).expect("text"))
            .collect();
        out.extend(pretty);
        out
    }

    #[test]
    fn reads_what_serde_reads() {
        let frames = frames();
        for frame in &frames {
            let scanned = read(frame).unwrap_or_else(|e| panic!("{frame}: {e:#}"));
            assert_eq!(scanned, by_serde(frame), "{frame}");
        }
        let first = read(&frames[0]).expect("a patch");
        assert_eq!(first.to_act, Some(0b1001));
        assert_eq!(first.legal_actions, Some(r#"[{"card":72,"type":"keep"}]"#), "json! sorts keys");
        assert!(first.patch_len > 100 && !first.outcome);
        assert!(read(&frames[1]).expect("a final patch").outcome);
    }

    /// A random JSON value of at most `depth` levels: strings with quotes, backslashes, brackets
    /// and escapes in them, numbers of every form, nested arrays and objects.
    fn random_value(rng: &mut game_core::GameRng, depth: u32) -> Value {
        const PIECES: [&str; 8] = ["a", "\"", "\\", "{", "]", "\u{7}", "ü", " , : "];
        match rng.below(if depth == 0 { 4 } else { 6 }) {
            0 => Value::Null,
            1 => json!(rng.below(3) == 0),
            2 => [json!(rng.below(1000)), json!(-(rng.below(99) as i64)), json!(rng.below(1000) as f64 / 7.0)]
                [rng.below(3)]
            .clone(),
            3 => Value::String((0..rng.below(6)).map(|_| PIECES[rng.below(8)]).collect()),
            4 => Value::Array((0..rng.below(4)).map(|_| random_value(rng, depth - 1)).collect()),
            _ => Value::Object(
                (0..rng.below(4))
                    .map(|i| (format!("k{i}{}", PIECES[rng.below(8)]), random_value(rng, depth - 1)))
                    .collect(),
            ),
        }
    }

    #[test]
    fn skips_any_value_where_serde_ends_it() {
        let mut rng = game_core::GameRng::from_u64(12);
        for _ in 0..2000 {
            let mut frame = serde_json::Map::new();
            frame.insert("type".into(), json!("patch"));
            frame.insert("version".into(), json!(rng.below(100)));
            frame.insert("patch".into(), random_value(&mut rng, 4));
            frame.insert("events".into(), random_value(&mut rng, 4));
            frame.insert("legal_actions".into(), random_value(&mut rng, 3));
            frame.insert("outcome".into(), random_value(&mut rng, 2));
            frame.insert("zz".into(), random_value(&mut rng, 4));
            let frame = Value::Object(frame).to_string();
            assert_eq!(read(&frame).unwrap_or_else(|e| panic!("{frame}: {e:#}")), by_serde(&frame), "{frame}");
        }
    }

    #[test]
    fn names_the_game_a_frame_is_about() {
        let frames = frames();
        for frame in &frames {
            let by_serde: Value = serde_json::from_str(frame).expect("json");
            assert_eq!(game_of(frame).expect("a frame"), by_serde["game"].as_str(), "{frame}");
        }
        assert_eq!(game_of(r#"{"type":"chat","text":"{\"game\":\"x\"}","game":"g2"}"#).expect("a frame"), Some("g2"));
        assert_eq!(game_of(r#"{"type":"lobby","game":null}"#).expect("a frame"), None);
        assert!(game_of(r#"{"type":"patch","#).is_err());
    }

    #[test]
    fn refuses_what_is_not_a_frame() {
        for bad in [
            "",
            "[]",
            "{}",
            r#"{"version":1}"#,
            r#"{"type":"patch""#,
            r#"{"type":"patch","to_act":[64]}"#,
            r#"{"type":"patch","patch":[{"op":"x"}"#,
            r#"{"type":"patch","events":"unterminated}"#,
            r#"{"type":"patch"} trailing"#,
            r#"{"type":"patch" "version":1}"#,
            r#"{"type":"patch","version":}"#,
        ] {
            assert!(read(bad).is_err(), "{bad:?} is refused");
        }
    }
}
