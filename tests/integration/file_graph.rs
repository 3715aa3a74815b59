//! Inside each folder of src/ (oomlab's and the kernels crate's), the files' own graph: a file's arrow goes to a sibling when
//! its code (comments and the test module left out) names, after `super::` or after the
//! folder's own `crate::` path, the sibling's module or an item only that sibling
//! defines. No file may reach itself: each folder reads from the bottom up. The
//! environment is read in one module of each crate, and oomlab's own src/ holds no cuBLAS
//! binding and no cubecl kernel (the kernels crate does).

use std::collections::{BTreeMap, BTreeSet};

use crate::module_graph::{both_srcs, code_of, reach, rust_files, Graph};
use std::path::{Path, PathBuf};

/// The identifiers named right after each `prefix` in `code`: the path's first segment
/// and its second, or every word of a `{...}` group in either place.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let word = regex::Regex::new(r"[A-Za-z_][A-Za-z0-9_]*").unwrap();
    // The words of a segment at the start of `text`, and what follows it.
    let segment = |text: &str| -> (Vec<String>, usize) {
        if text.starts_with('{') {
            let mut depth = 0;
            for (j, c) in text.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            let words = word.find_iter(&text[..j]).map(|m| m.as_str().to_string());
                            return (words.collect(), j + 1);
                        }
                    }
                    _ => {}
                }
            }
            (Vec::new(), text.len())
        } else {
            match word.find(text).filter(|m| m.start() == 0) {
                Some(m) => (vec![m.as_str().to_string()], m.end()),
                None => (Vec::new(), 0),
            }
        }
    };
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        rest = &rest[i + prefix.len()..];
        let (first, used) = segment(rest);
        out.extend(first);
        if let Some(after) = rest[used..].strip_prefix("::") {
            out.extend(segment(after).0);
        }
    }
    out
}

/// The top-level items `code` defines.
fn defined(code: &str) -> BTreeSet<String> {
    let item = regex::Regex::new(
        r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|const|type|static|mod)\s+([A-Za-z_][A-Za-z0-9_]*)",
    )
    .unwrap();
    item.captures_iter(code).map(|c| c[1].to_string()).collect()
}

/// Each folder under `src` with its files' graph.
fn folders(src: &Path) -> BTreeMap<PathBuf, Graph> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut files = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "mod.rs")
            {
                let name = path.file_stem().unwrap().to_str().unwrap().to_string();
                files.insert(name, code_of(&std::fs::read_to_string(&path).unwrap()));
            }
        }
        let rel = dir.strip_prefix(src).unwrap();
        let own = match rel.to_str().unwrap() {
            "" => "crate::".to_string(),
            r => format!("crate::{}::", r.replace('/', "::")),
        };
        let defs: BTreeMap<&String, BTreeSet<String>> =
            files.iter().map(|(n, c)| (n, defined(c))).collect();
        let mut graph = Graph::new();
        for (name, code) in &files {
            let named: BTreeSet<String> = named_after(code, "super::")
                .into_iter()
                .chain(named_after(code, &own))
                .collect();
            let edges = graph.entry(name.clone()).or_default();
            for (other, items) in &defs {
                if *other == name {
                    continue;
                }
                let only_there = items
                    .iter()
                    .filter(|i| defs.iter().all(|(o, d)| o == other || !d.contains(*i)));
                if named.contains(*other) || only_there.into_iter().any(|i| named.contains(i)) {
                    edges.insert((*other).clone());
                }
            }
        }
        out.insert(dir, graph);
    }
    out
}

#[test]
fn the_reader_follows_super_and_the_folders_own_path() {
    let code = code_of(
        "use super::a::X;\nuse super::{b::Y, Z};\nlet t = crate::f::c::g();\n// super::d\n#[cfg(test)]\nuse super::e;",
    );
    let supers: Vec<String> = named_after(&code, "super::").into_iter().collect();
    assert_eq!(supers, ["X", "Y", "Z", "a", "b"]);
    assert!(named_after(&code, "crate::f::").contains("c"));
    assert!(defined("pub(crate) fn one() {}\nstruct Two;\nimpl Three {}").contains("one"));
}

#[test]
fn no_file_reaches_itself_inside_its_folder() {
    let all: BTreeMap<PathBuf, Graph> = both_srcs().iter().flat_map(|s| folders(s)).collect();
    let edges: usize = all
        .values()
        .flat_map(|g| g.values())
        .map(BTreeSet::len)
        .sum();
    assert!(edges > 100, "the reader found too few arrows: {edges}");
    let mut circles = Vec::new();
    for (dir, graph) in &all {
        for (file, out) in graph {
            for next in out {
                if reach(graph, next).contains(file) {
                    circles.push(format!("{}: {file} -> {next}", dir.display()));
                }
            }
        }
    }
    assert!(circles.is_empty(), "arrows on a circle: {circles:#?}");
}

#[test]
fn the_environment_is_read_in_one_module_of_each_crate() {
    let mut readers = Vec::new();
    for src in both_srcs() {
        for (path, code) in rust_files(&src) {
            if path == src.join("env.rs") {
                continue;
            }
            for reader in ["env::var(", "env::var_os(", "env::vars(", "env::set_var("] {
                if code.contains(reader) {
                    readers.push(format!("{}: {reader}", path.display()));
                }
            }
        }
    }
    assert!(
        readers.is_empty(),
        "read outside a crate's env.rs: {readers:#?}"
    );
}

#[test]
fn oomlab_holds_no_cublas_binding_and_no_cubecl_kernel_the_kernels_crate_does() {
    let marks = ["#[cube", "cudarc::cublas", "::launch::<CudaRuntime>("];
    let found = |src: &Path| -> Vec<String> {
        rust_files(src)
            .into_iter()
            .flat_map(|(path, text)| {
                marks
                    .iter()
                    .filter(|m| text.contains(**m))
                    .map(|m| format!("{}: {m}", path.display()))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let [oomlab, kernels] = both_srcs();
    assert!(found(&oomlab).is_empty(), "{:#?}", found(&oomlab));
    let theirs = found(&kernels).join("\n");
    for mark in marks {
        assert!(theirs.contains(mark), "the kernels crate has no {mark}");
    }
}
