//! The README is checked against the code, not copied from it.

use anonymizer::api::ErrorCode;

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("read file")
}

#[test]
fn the_readme_states_the_ci_test_command_and_the_run_command() {
    let readme = read("README.md");
    let ci = read(".ci/run");
    assert!(
        ci.contains("exec scripts/test.sh"),
        ".ci/run must run the README's test command"
    );
    assert!(readme.contains("scripts/test.sh"));
    assert!(readme.contains("scripts/run.sh"));
}

#[test]
fn the_readme_error_table_lists_every_error_code_with_its_status() {
    let readme = read("README.md");
    for code in ErrorCode::ALL {
        let row = format!("| {} | `{}` |", code.status(), code.as_str());
        assert!(readme.contains(&row), "README lacks the row {row}");
    }
}

#[test]
fn the_readme_config_reference_covers_every_key_of_the_default_config() {
    let readme = read("README.md");
    let yaml: serde_yaml::Value = serde_yaml::from_str(&read("conf/anonymizer.yaml")).unwrap();
    let sections = yaml.as_mapping().expect("mapping");
    for (section, fields) in sections {
        let section = section.as_str().expect("key");
        let Some(fields) = fields.as_mapping() else {
            // A list section (routes) has its own README part.
            assert!(
                readme.contains(&format!("`{section}:`")),
                "README lacks {section}"
            );
            continue;
        };
        for (field, _) in fields {
            let key = format!("`{section}.{}`", field.as_str().expect("key"));
            assert!(readme.contains(&key), "README config reference lacks {key}");
        }
    }
}
