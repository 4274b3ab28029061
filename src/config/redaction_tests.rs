//! Every place a secret can live in the config, and `{:?}` of what is built from it.

use super::*;

/// One distinct secret per place a secret can live.
const FILE_KEY: &str = "file-api-key-1111aaaa";
const ENV_KEY: &str = "env-api-key-2222bbbb";
const FILE_MASTER: &str = "file-master-secret-3333cccc-0123456789";
const ENV_MASTER: &str = "env-master-secret-4444dddd-0123456789";
const HEADER_VALUE: &str = "provider-key-5555eeee";
const HEADER_FROM_ENV: &str = "provider-env-key-6666ffff";
const FILE_REDIS_PASSWORD: &str = "file-redis-pass-7777gggg";
const ENV_REDIS_PASSWORD: &str = "env-redis-pass-8888hhhh";

const ALL: &[&str] = &[
    FILE_KEY,
    ENV_KEY,
    FILE_MASTER,
    ENV_MASTER,
    HEADER_VALUE,
    HEADER_FROM_ENV,
    FILE_REDIS_PASSWORD,
    ENV_REDIS_PASSWORD,
];

fn yaml() -> String {
    format!(
        "auth:\n  api_keys:\n    - {{tenant: t, key: {FILE_KEY}}}\n\
         secrets:\n  master_secret: {FILE_MASTER}\n\
         sessions:\n  store: redis\n  redis:\n    url: redis://app:{FILE_REDIS_PASSWORD}@127.0.0.1:1/0\n\
         routes:\n  - name: chat\n    match: {{path_prefix: /v1/chat/completions}}\n    preset: openai_chat\n    \
         upstream:\n      url: http://127.0.0.1:1\n      add_headers:\n        authorization: Bearer {HEADER_VALUE}\n        \
         x-provider-key: ${{PROVIDER_KEY}}\n"
    )
}

fn env(name: &str) -> Option<String> {
    match name {
        "ANONYMIZER_API_KEYS" => Some(format!("u:{ENV_KEY}")),
        "PROVIDER_KEY" => Some(HEADER_FROM_ENV.into()),
        _ => None,
    }
}

fn assert_hides_all(what: &str, text: &str) {
    for secret in ALL {
        assert!(!text.contains(secret), "{what} shows {secret}:\n{text}");
    }
}

#[test]
fn no_debug_print_of_the_config_or_the_settings_shows_a_secret() {
    let text = env::interpolate(&yaml(), &env).expect("interpolates");
    let config: Config = serde_yaml::from_str(&text).expect("parses");
    assert_hides_all("Config", &format!("{config:?} {config:#?}"));

    let settings = Settings::from_yaml(&yaml(), &env).expect("compiles");
    assert_hides_all("Settings", &format!("{settings:?} {settings:#?}"));
    // Each secret is where it is used, exposed only on request.
    let keys: Vec<&str> = settings
        .api_keys
        .iter()
        .map(|k| k.key.expose().as_str())
        .collect();
    assert_eq!(keys, [FILE_KEY, ENV_KEY]);
    let headers: Vec<&[u8]> = settings.routes[0]
        .upstream
        .add_headers
        .iter()
        .map(|(_, v)| v.expose().as_bytes())
        .collect();
    assert_eq!(
        headers,
        [
            format!("Bearer {HEADER_VALUE}").as_bytes(),
            HEADER_FROM_ENV.as_bytes()
        ]
    );
    assert!(settings.routes[0].upstream.add_headers[0]
        .1
        .expose()
        .is_sensitive());

    // The environment's master secret and Redis URL override the file's.
    let overriding = |name: &str| match name {
        "ANONYMIZER_SECRET" => Some(ENV_MASTER.into()),
        "ANONYMIZER_REDIS_URL" => Some(format!("redis://:{ENV_REDIS_PASSWORD}@127.0.0.1:1")),
        other => env(other),
    };
    let settings = Settings::from_yaml(&yaml(), &overriding).expect("compiles");
    assert_hides_all("Settings", &format!("{settings:?} {settings:#?}"));
    assert_eq!(
        settings.master_secret.expect("set").as_bytes(),
        ENV_MASTER.as_bytes()
    );
}

#[test]
fn no_config_error_shows_a_secret() {
    // Each secret in a place where it is refused.
    let yaml = format!(
        "auth:\n  api_keys:\n    - {{tenant: 'bad tenant', key: {FILE_KEY}}}\n\
         secrets:\n  master_secret: short-{}\n\
         sessions:\n  store: redis\n  redis:\n    url: http://app:{FILE_REDIS_PASSWORD}@host\n\
         routes:\n  - name: chat\n    match: {{path_prefix: /v1/chat}}\n    preset: openai_chat\n    \
         upstream:\n      url: http://user:{ENV_REDIS_PASSWORD}@127.0.0.1:1\n      add_headers:\n        \
         authorization: \"Bearer {HEADER_VALUE}\\u0001\"\n",
        &ENV_MASTER[..8]
    );
    let errors = Settings::from_yaml(&yaml, &env).expect_err("invalid");
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "auth.api_keys[0]",
            "sessions.redis.url",
            "secrets.master_secret",
            "routes[0].upstream.url",
            "routes[0].upstream.add_headers",
        ]
    );
    let text: String = errors.iter().map(|e| format!("{e} {e:?}\n")).collect();
    assert_hides_all("errors", &text);
    assert!(!text.contains(&ENV_MASTER[..8]), "{text}");
    // A secret of the wrong type in the YAML itself.
    let errors = Settings::from_yaml(
        "auth:\n  api_keys:\n    - {key: [\"list-secret-9999iiii\"]}\n",
        &env,
    )
    .expect_err("invalid");
    assert!(!format!("{errors:?}").contains("9999iiii"), "{errors:?}");
}
