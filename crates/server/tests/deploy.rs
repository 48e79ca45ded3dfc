//! The self-hosting files: no default database password, security headers on the web client.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::{TestDb, TestServer};

#[test]
fn docker_compose_requires_a_database_password_and_has_no_default() {
    let compose = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docker-compose.yml")).unwrap();
    let uses: Vec<&str> = compose.match_indices("${POSTGRES_PASSWORD").map(|(i, _)| &compose[i..]).collect();
    assert!(uses.len() >= 2, "the database and the server both take the password");
    for at in uses {
        // `${VAR:?message}` makes compose refuse to start without it; `${VAR:-default}` would not.
        assert!(at.starts_with("${POSTGRES_PASSWORD:?"), "every use requires it: {}", &at[..40.min(at.len())]);
    }
}

#[tokio::test]
async fn the_web_client_is_served_with_security_headers_compressed_and_cacheable() {
    let db = TestDb::sqlite();
    let mut config = common::config(&db);
    config.web_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web").into();
    let server = TestServer::start_config(config).await;
    let client = reqwest::Client::new();
    let page = client.get(format!("http://{}/", server.addr)).send().await.unwrap();
    let header = |name: &str| page.headers().get(name).map(|v| v.to_str().unwrap().to_string());
    let csp = header("content-security-policy").expect("a Content-Security-Policy");
    for directive in ["default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"] {
        assert!(csp.contains(directive), "{directive} in {csp}");
    }
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{csp}");
    assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"));
    assert_eq!(header("referrer-policy").as_deref(), Some("no-referrer"));
    assert_eq!(header("x-frame-options").as_deref(), Some("DENY"));
    assert!(header("cache-control").is_some_and(|c| c.contains("no-cache")), "HTML is revalidated");

    let script = client
        .get(format!("http://{}/js/main.js", server.addr))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(script.headers().get("content-encoding").map(|v| v.to_str().unwrap()), Some("gzip"));
    let cache = script.headers().get("cache-control").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    assert!(cache.contains("max-age="), "static files are cacheable: {cache}");
    let api = client.get(format!("http://{}/api/catalog", server.addr)).send().await.unwrap();
    assert_eq!(api.headers().get("x-content-type-options").map(|v| v.to_str().unwrap()), Some("nosniff"));
    server.stop().await;
}
