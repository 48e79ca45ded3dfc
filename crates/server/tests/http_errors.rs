//! Every HTTP failure is the documented JSON error, whatever part of the request is wrong: the
//! query, the path, the method, or the body's size.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::{code, TestDb, TestServer};
use serde_json::{json, Value};

/// Sends a raw request and returns the status and the body as JSON (Null when it is not JSON).
async fn raw(server: &TestServer, method: &str, path_and_query: &str, body: Option<Vec<u8>>) -> (u16, Value) {
    raw_as(server, None, method, path_and_query, body).await
}

/// As [`raw`], signed in with `token`.
async fn raw_as(
    server: &TestServer,
    token: Option<&str>,
    method: &str,
    path_and_query: &str,
    body: Option<Vec<u8>>,
) -> (u16, Value) {
    let client = reqwest::Client::new();
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = client.request(method, format!("http://{}{path_and_query}", server.addr));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.header("content-type", "application/json").body(body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn bad_queries_paths_and_methods_get_json_errors() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let cases = [
        ("GET", "/api/games/some-game/replay?at=abc", 422, "proto/malformed"),
        ("GET", "/api/games/some-game/replay?at=-1", 422, "proto/malformed"),
        ("GET", "/api/lobbies/some-lobby?code=a&code=b", 422, "proto/malformed"),
        ("GET", "/api/games/%FF%FE", 422, "proto/malformed"),
        ("DELETE", "/api/lobbies", 405, "proto/method_not_allowed"),
        ("GET", "/api/guest", 405, "proto/method_not_allowed"),
        ("PUT", "/api/games/some-game/log", 405, "proto/method_not_allowed"),
    ];
    for (method, path, status, expected) in cases {
        let (got, body) = raw(&server, method, path, None).await;
        assert_eq!((got, code(&body)), (status, expected), "{method} {path}: {body}");
        assert!(body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{method} {path}: {body}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_body_above_the_limit_gets_413_and_changes_nothing() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let (ana, _) = server.http().guest("Ana").await;
    let big = serde_json::to_vec(&json!({"name": "x".repeat(70 * 1024)})).unwrap();
    let (status, body) = raw(&server, "POST", "/api/guest", Some(big.clone())).await;
    assert_eq!((status, code(&body)), (413, "proto/too_large"), "{body}");
    assert_eq!(body["error"]["details"]["limit"], 64 * 1024);

    let lobby = ana.post("/api/lobbies", json!({"game": "knights-templar", "public": true})).await;
    let id = lobby["lobby"]["id"].as_str().unwrap();
    let (status, body) =
        raw_as(&server, ana.token.as_deref(), "POST", &format!("/api/lobbies/{id}/join"), Some(big)).await;
    assert_eq!((status, code(&body)), (413, "proto/too_large"), "a raw body too: {body}");
    // A body just under the limit is read (and refused for what it says, not for its size).
    let fits = serde_json::to_vec(&json!({"name": "x".repeat(60 * 1024)})).unwrap();
    let (status, body) = raw(&server, "POST", "/api/guest", Some(fits)).await;
    assert_eq!((status, code(&body)), (422, "auth/invalid_name"), "{body}");
    server.stop().await;
}
