//! The web client knows each card's type from its id (the view JSON sends bare ids): its table
//! must be the engine's card list.

use knights_templar::{Card, CardType};

#[test]
fn the_web_clients_card_type_table_is_the_engines() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/js/games/knights-templar.js");
    let js = std::fs::read_to_string(path).expect("the web client's Knights Templar module");
    let list = |name: &str| -> Vec<String> {
        let line = js.lines().find(|l| l.starts_with(&format!("const {name} = ["))).expect(name);
        let inner = line.split_once('[').and_then(|(_, r)| r.split_once(']')).map(|(l, _)| l).expect("a list");
        inner.split(',').map(|x| x.trim().trim_matches('\'').to_string()).collect()
    };
    let types = list("TYPES");
    let sizes: Vec<usize> = list("TYPE_SIZES").iter().map(|n| n.parse().expect("a count")).collect();
    let engine: Vec<String> = CardType::ALL
        .iter()
        .map(|t| serde_json::to_value(t).ok().and_then(|v| v.as_str().map(String::from)).expect("a name"))
        .collect();
    assert_eq!(types, engine, "TYPES in the engine's order");
    let mut id = 1u8;
    for (kind, n) in CardType::ALL.iter().zip(&sizes) {
        for _ in 0..*n {
            assert_eq!(Card(id).kind(), *kind, "card {id}");
            id += 1;
        }
    }
    assert_eq!(usize::from(id - 1), Card::all().count(), "TYPE_SIZES covers every card");
}
