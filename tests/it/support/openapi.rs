//! Holds the service to its OpenAPI description (`openapi/v1.json`): every response a
//! test receives from an operation the description names is checked against what it
//! declares for that status — declared at all, `Content-Type`, required headers, and
//! the body against the schema (JSON Schema 2020-12, the `jsonschema` crate).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

/// The description, parsed once.
pub fn doc() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/v1.json");
        let text = std::fs::read_to_string(path).expect("read openapi/v1.json");
        serde_json::from_str(&text).expect("openapi/v1.json is JSON")
    })
}

/// `a/b~c` as a JSON-pointer segment.
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Follows a `$ref` to `#/components/...`, else returns `value` itself.
fn resolve(value: &Value) -> (&Value, Option<&str>) {
    match value["$ref"].as_str() {
        Some(pointer) => (
            doc()
                .pointer(pointer.trim_start_matches('#'))
                .unwrap_or_else(|| panic!("dangling {pointer}")),
            Some(pointer),
        ),
        None => (value, None),
    }
}

/// A validator for the schema at `pointer`, inside the whole document so that its
/// `$ref`s resolve (OpenAPI 3.1 schemas are JSON Schema 2020-12).
fn validator(pointer: &str) -> Arc<jsonschema::Validator> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(v) = cache.lock().expect("cache").get(pointer) {
        return Arc::clone(v);
    }
    let mut root = doc().clone();
    root["$ref"] = Value::String(format!("#{pointer}"));
    let v = Arc::new(
        jsonschema::draft202012::new(&root).unwrap_or_else(|e| panic!("schema {pointer}: {e}")),
    );
    cache
        .lock()
        .expect("cache")
        .insert(pointer.to_owned(), Arc::clone(&v));
    v
}

/// Checks one response. Returns `false` when `method path` is not an operation of the
/// description (a proxy route, `/healthz`), `true` when it is and the response conforms;
/// panics, saying why, when it does not.
pub fn check(
    method: &str,
    path: &str,
    status: u16,
    headers: &reqwest::header::HeaderMap,
    body: &str,
) -> bool {
    let path = path.split('?').next().unwrap_or(path);
    let Some(op) = doc()["paths"]
        .get(path)
        .and_then(|item| item.get(method.to_ascii_lowercase()))
    else {
        return false;
    };
    let what = format!("{method} {path} → {status}");
    let declared = op["responses"]
        .get(status.to_string())
        .unwrap_or_else(|| panic!("{what}: status not in openapi/v1.json; body {body}"));
    let (response, _) = resolve(declared);
    for (name, header) in response["headers"].as_object().into_iter().flatten() {
        let (header, _) = resolve(header);
        let value = headers.get(name.as_str()).and_then(|v| v.to_str().ok());
        match value {
            None if header["required"] == true => panic!("{what}: no {name} header"),
            None => {}
            Some(value) => {
                let schema =
                    jsonschema::draft202012::new(&header["schema"]).expect("header schema");
                assert!(
                    schema.is_valid(&Value::String(value.to_owned())),
                    "{what}: header {name}: {value:?} does not match {}",
                    header["schema"]
                );
            }
        }
    }
    let content = response["content"].as_object().expect("content");
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(
        content.contains_key(content_type),
        "{what}: Content-Type {content_type:?} not declared"
    );
    let instance: Value = serde_json::from_str(body)
        .unwrap_or_else(|e| panic!("{what}: body is not JSON ({e}): {body}"));
    // The pointer to this response's schema, through the components it refers to.
    let pointer = match resolve(declared).1 {
        Some(r) => format!(
            "{}/content/{}/schema",
            r.trim_start_matches('#'),
            escape(content_type)
        ),
        None => format!(
            "/paths/{}/{}/responses/{status}/content/{}/schema",
            escape(path),
            method.to_ascii_lowercase(),
            escape(content_type)
        ),
    };
    let validator = validator(&pointer);
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("  at {}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: body does not match {pointer}:\n{}\nbody: {body}",
        errors.join("\n")
    );
    true
}
