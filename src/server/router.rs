//! Which endpoint a request is for. Endpoints are an enum so that metric labels and log
//! fields are a fixed set, never a raw path.

/// A served endpoint, or the catch-all for everything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    Anonymize,
    Deanonymize,
    Entities,
    OpenApi,
    Healthz,
    Readyz,
    /// Presidio's REST API, on its own listener (`api::presidio`).
    PresidioAnalyze,
    PresidioAnonymize,
    PresidioDeanonymize,
    PresidioRecognizers,
    PresidioSupportedEntities,
    PresidioHealth,
    /// Forwarded to a proxy route's upstream.
    Proxy,
    /// Unknown path or wrong method: answered with an error.
    Other,
}

impl Endpoint {
    pub fn as_str(&self) -> &'static str {
        match self {
            Endpoint::Anonymize => "anonymize",
            Endpoint::Deanonymize => "deanonymize",
            Endpoint::Entities => "entities",
            Endpoint::OpenApi => "openapi",
            Endpoint::Healthz => "healthz",
            Endpoint::Readyz => "readyz",
            Endpoint::PresidioAnalyze => "presidio_analyze",
            Endpoint::PresidioAnonymize => "presidio_anonymize",
            Endpoint::PresidioDeanonymize => "presidio_deanonymize",
            Endpoint::PresidioRecognizers => "presidio_recognizers",
            Endpoint::PresidioSupportedEntities => "presidio_supportedentities",
            Endpoint::PresidioHealth => "presidio_health",
            Endpoint::Proxy => "proxy",
            Endpoint::Other => "other",
        }
    }

    /// `/v1/*` endpoints need an API key; Presidio's too, unless its listener is
    /// configured without keys (loopback only).
    pub fn needs_key(&self) -> bool {
        matches!(
            self,
            Endpoint::Anonymize
                | Endpoint::Deanonymize
                | Endpoint::Entities
                | Endpoint::OpenApi
                | Endpoint::PresidioAnalyze
                | Endpoint::PresidioAnonymize
                | Endpoint::PresidioDeanonymize
                | Endpoint::PresidioRecognizers
                | Endpoint::PresidioSupportedEntities
        )
    }
}

/// The routing decision for a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Serve(Endpoint),
    NotFound,
    /// The path exists; the method is not one of `allow`.
    MethodNotAllowed {
        allow: &'static str,
    },
}

/// Path → (endpoint, the one method it accepts).
const TABLE: &[(&str, Endpoint, &str)] = &[
    ("/v1/anonymize", Endpoint::Anonymize, "POST"),
    ("/v1/deanonymize", Endpoint::Deanonymize, "POST"),
    ("/v1/entities", Endpoint::Entities, "GET"),
    ("/v1/openapi.json", Endpoint::OpenApi, "GET"),
    ("/healthz", Endpoint::Healthz, "GET"),
    ("/readyz", Endpoint::Readyz, "GET"),
];

/// The Presidio listener's paths (analyzer and anonymizer on one port).
const PRESIDIO: &[(&str, Endpoint, &str)] = &[
    ("/analyze", Endpoint::PresidioAnalyze, "POST"),
    ("/anonymize", Endpoint::PresidioAnonymize, "POST"),
    ("/deanonymize", Endpoint::PresidioDeanonymize, "POST"),
    ("/recognizers", Endpoint::PresidioRecognizers, "GET"),
    (
        "/supportedentities",
        Endpoint::PresidioSupportedEntities,
        "GET",
    ),
    ("/health", Endpoint::PresidioHealth, "GET"),
];

pub fn route(method: &str, path: &str) -> Route {
    lookup(TABLE, method, path)
}

/// A path of the Presidio listener.
pub fn presidio_route(method: &str, path: &str) -> Route {
    lookup(PRESIDIO, method, path)
}

fn lookup(table: &[(&str, Endpoint, &'static str)], method: &str, path: &str) -> Route {
    match table.iter().find(|(p, _, _)| *p == path) {
        None => Route::NotFound,
        Some((_, endpoint, allowed)) if *allowed == method => Route::Serve(*endpoint),
        Some((_, _, allowed)) => Route::MethodNotAllowed { allow: allowed },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_paths_and_methods() {
        assert_eq!(
            route("POST", "/v1/anonymize"),
            Route::Serve(Endpoint::Anonymize)
        );
        assert_eq!(
            route("GET", "/v1/anonymize"),
            Route::MethodNotAllowed { allow: "POST" }
        );
        assert_eq!(route("POST", "/v1/anonymize/"), Route::NotFound);
        assert_eq!(route("GET", "/healthz"), Route::Serve(Endpoint::Healthz));
    }
}
