//! Which configuration keys a resume would change: the run folder's `config.toml` against
//! the configuration the resume resolved (the same file with the flags given).

use crate::config::ConfigFile;

/// `key: saved -> now` for every leaf that differs, in key order.
pub fn changed_keys(saved: &ConfigFile, now: &ConfigFile) -> Vec<String> {
    let (left, right) = (saved.entries(), now.entries());
    let mut keys: Vec<&String> = left.iter().chain(right.iter()).map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    let get = |list: &[(String, toml::Value)], key: &str| {
        list.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.to_string())
            .unwrap_or_else(|| "(unset)".into())
    };
    keys.into_iter()
        .filter_map(|k| {
            let (was, is) = (get(&left, k), get(&right, k));
            (was != is).then(|| format!("{k}: {was} -> {is}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{load, ConfigSource};

    #[test]
    fn only_the_keys_that_changed_are_named() {
        let tiny = ConfigSource::Builtin("tiny".into());
        let (a, _) = load(&tiny, &[]).unwrap();
        assert!(changed_keys(&a, &a).is_empty());
        let (b, _) = load(
            &tiny,
            &[
                ("train.batch".into(), toml::Value::Integer(8)),
                ("optim.lr".into(), toml::Value::Float(0.5)),
            ],
        )
        .unwrap();
        let diff = changed_keys(&a, &b);
        assert_eq!(diff.len(), 2, "{diff:?}");
        assert!(diff[0].starts_with("optim.lr: "), "{diff:?}");
        assert!(
            diff[1].starts_with("train.batch: ") && diff[1].ends_with("-> 8"),
            "{diff:?}"
        );
    }
}
