//! Which configuration keys a resume would change: the run folder's `config.toml` against
//! the configuration the resume resolved (the same file with the flags given).

use crate::config::ConfigFile;

/// `key: saved -> now` for every leaf that differs, in key order.
pub fn changed_keys(saved: &ConfigFile, now: &ConfigFile) -> Vec<String> {
    let (Ok(a), Ok(b)) = (toml::Value::try_from(saved), toml::Value::try_from(now)) else {
        return vec!["(the configuration could not be compared)".into()];
    };
    let mut left = Vec::new();
    let mut right = Vec::new();
    flatten("", &a, &mut left);
    flatten("", &b, &mut right);
    let mut keys: Vec<&String> = left.iter().chain(right.iter()).map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    let get = |list: &[(String, String)], key: &str| {
        list.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| "(unset)".into())
    };
    keys.into_iter()
        .filter_map(|k| {
            let (was, is) = (get(&left, k), get(&right, k));
            (was != is).then(|| format!("{k}: {was} -> {is}"))
        })
        .collect()
}

fn flatten(prefix: &str, v: &toml::Value, out: &mut Vec<(String, String)>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        other => out.push((prefix.to_string(), other.to_string())),
    }
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
