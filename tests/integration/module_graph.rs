//! The libraries' module graphs, read from the `crate::` paths in src/ (code only: comments
//! and `#[cfg(test)]` modules left out): no cycle between top-level modules in oomlab or in
//! its kernels crate, the training loop never reaches into data parallelism, the result
//! types sit at the bottom, and the kernels crate's plain operations never reach its CUDA
//! ones.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub(crate) type Graph = BTreeMap<String, BTreeSet<String>>;

/// The top-level module of a file under src/ (`train/run.rs` -> `train`).
fn top_module(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

/// The code of a file without line comments and without its test module.
pub(crate) fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            // `//` inside a string (a URL) is rare in paths; a line comment is what counts.
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every top-level module named after `crate::` in `code`, including inside
/// `crate::{a::X, b}` groups.
fn named_modules(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group up to its closing brace, nested groups included.
            let mut depth = 1;
            let mut end = 0;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    end = j;
                    break;
                }
            }
            let mut depth = 0;
            let mut item = String::new();
            for c in group[..end].chars().chain(std::iter::once(',')) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let name = ident(item.trim());
                        if !name.is_empty() && name != "self" {
                            out.insert(name);
                        }
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// oomlab's src/ and the kernels crate's.
pub(crate) fn both_srcs() -> [PathBuf; 2] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [root.join("src"), root.join("crates/oomlab-kernels/src")]
}

/// Every .rs file under `dir`, with its text.
pub(crate) fn rust_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path, text));
            }
        }
    }
    out
}

/// oomlab's graph.
fn graph() -> Graph {
    graph_of(&both_srcs()[0])
}

/// The kernels crate's graph.
fn kernels_graph() -> Graph {
    graph_of(&both_srcs()[1])
}

/// The graph of the top-level modules of the crate whose src/ is `src`.
fn graph_of(src: &Path) -> Graph {
    let mut graph = Graph::new();
    for (path, text) in rust_files(src) {
        let Some(top) = top_module(path.strip_prefix(src).unwrap()) else {
            continue;
        };
        let named = named_modules(&code_of(&text));
        let edges = graph.entry(top.clone()).or_default();
        edges.extend(named.into_iter().filter(|m| *m != top));
    }
    graph
}

/// Modules reachable from `from`.
pub(crate) fn reach(graph: &Graph, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(m) = stack.pop() {
        for next in graph.get(&m).into_iter().flatten() {
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    seen
}

#[test]
fn the_reader_finds_paths_in_groups_and_ignores_comments() {
    let code = code_of(
        "use crate::{a::X, b::{Y, Z}, self};\n// crate::c\nlet x = crate::d::f();\n#[cfg(test)]\nuse crate::e;",
    );
    let names: Vec<String> = named_modules(&code).into_iter().collect();
    assert_eq!(names, ["a", "b", "d"]);
}

/// The edges of `g` that lie on a cycle.
fn cycles(g: &Graph) -> Vec<String> {
    g.iter()
        .flat_map(|(a, edges)| {
            edges
                .iter()
                .filter(move |b| reach(g, b).contains(a))
                .map(move |b| format!("{a} -> {b}"))
        })
        .collect()
}

#[test]
fn no_top_level_module_of_the_kernels_crate_reaches_itself() {
    let g = kernels_graph();
    assert!(g.len() >= 4, "the reader found too few modules: {g:?}");
    assert!(cycles(&g).is_empty(), "edges on a cycle: {:?}", cycles(&g));
    // The plain operations, burn's and the fusion backend's, are the CPU's path and the
    // reference of the CUDA ones: they never reach them.
    assert!(
        !reach(&g, "ops").contains("cuda"),
        "ops reaches cuda: {g:?}"
    );
    assert!(
        reach(&g, "cuda").contains("ops"),
        "the reader missed cuda -> ops: {g:?}"
    );
}

#[test]
fn no_top_level_module_reaches_itself() {
    let g = graph();
    assert!(g.len() > 10, "the reader found too few modules: {g:?}");
    let cycles: Vec<String> = g
        .iter()
        .flat_map(|(a, edges)| {
            let g = &g;
            edges
                .iter()
                .filter(move |b| reach(g, b).contains(a))
                .map(move |b| format!("{a} -> {b}"))
        })
        .collect();
    assert!(cycles.is_empty(), "edges on a cycle: {cycles:?}");
}

#[test]
fn the_training_loop_does_not_reach_data_parallelism() {
    let g = graph();
    assert!(
        !reach(&g, "train").contains("parallel"),
        "train reaches parallel: {:?}",
        g.get("train")
    );
    assert!(g.get("parallel").is_some_and(|e| e.contains("train")));
}

#[test]
fn the_result_types_import_nothing_that_produces_or_renders_them() {
    let g = graph();
    let above = [
        "train", "parallel", "cmd", "cli", "compare", "render", "lesson", "explain", "estimate",
        "run_dir", "backend", "progress",
    ];
    let reached = reach(&g, "results");
    let wrong: Vec<&&str> = above.iter().filter(|m| reached.contains(**m)).collect();
    assert!(wrong.is_empty(), "results reaches {wrong:?}");
}

#[test]
fn nothing_below_the_commands_imports_them() {
    let g = graph();
    let importers: Vec<&String> = g
        .iter()
        .filter(|(m, edges)| *m != "cli" && edges.contains("cmd"))
        .map(|(m, _)| m)
        .collect();
    assert!(importers.is_empty(), "{importers:?} import cmd");
}
