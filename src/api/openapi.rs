//! The OpenAPI 3.1 description of the `/v1` API, served at `GET /v1/openapi.json`.
//!
//! It is a static file (`openapi/v1.json`) so that it reads as a contract, not as code;
//! tests keep it true: its enums equal the label catalogue, the methods and the error
//! codes, and every response the integration tests and Schemathesis receive validates
//! against it.

/// The document, as served.
pub const V1: &str = include_str!("../../openapi/v1.json");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ErrorCode;
    use crate::methods::Method;
    use crate::text::label::LABELS;
    use serde_json::Value;

    fn doc() -> Value {
        serde_json::from_str(V1).expect("openapi/v1.json is JSON")
    }

    fn strings(v: &Value) -> Vec<&str> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|s| s.as_str().expect("string"))
            .collect()
    }

    #[test]
    fn its_enums_are_the_label_catalogue_the_methods_and_the_error_codes() {
        let doc = doc();
        let schemas = &doc["components"]["schemas"];
        let names: Vec<&str> = LABELS.iter().map(|l| l.name).collect();
        let mut with_aliases = names.clone();
        with_aliases.extend(LABELS.iter().flat_map(|l| l.aliases.iter().copied()));
        assert_eq!(strings(&schemas["CanonicalLabel"]["enum"]), names);
        assert_eq!(strings(&schemas["Label"]["enum"]), with_aliases);
        let unique: std::collections::BTreeSet<&str> = with_aliases.iter().copied().collect();
        assert_eq!(unique.len(), with_aliases.len(), "enum values are unique");
        let methods: Vec<&str> = Method::ALL.iter().map(Method::as_str).collect();
        assert_eq!(strings(&schemas["Method"]["enum"]), methods);
        let codes: Vec<&str> = ErrorCode::ALL.iter().map(ErrorCode::as_str).collect();
        assert_eq!(
            strings(&schemas["Error"]["properties"]["error"]["properties"]["code"]["enum"]),
            codes
        );
    }

    #[test]
    fn every_error_response_names_codes_of_its_status() {
        let doc = doc();
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, op) in item.as_object().expect("path item") {
                for (status, response) in op["responses"].as_object().expect("responses") {
                    let Some(name) = response["$ref"].as_str() else {
                        continue;
                    };
                    let name = name.trim_start_matches("#/components/responses/");
                    let schema = &doc["components"]["responses"][name]["content"]
                        ["application/json"]["schema"]["allOf"][1];
                    let codes =
                        strings(&schema["properties"]["error"]["properties"]["code"]["enum"]);
                    assert!(!codes.is_empty(), "{method} {path} {status}");
                    for code in codes {
                        let code = ErrorCode::ALL
                            .iter()
                            .find(|c| c.as_str() == code)
                            .expect("a known code");
                        assert_eq!(code.status().to_string(), *status, "{method} {path}");
                    }
                }
            }
        }
    }
}
