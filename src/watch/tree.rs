//! A job's process tree as /proc shows it: the job's root process and every descendant
//! (forked children, DataLoader workers, torchrun ranks), each with its resident memory.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::units::Bytes;

/// One process of the tree at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeProcess {
    /// PID.
    pub pid: u32,
    /// Parent PID.
    pub ppid: u32,
    /// Resident set size (host memory).
    pub rss: Bytes,
    /// The command line (arguments joined by spaces), or the name in brackets.
    pub command: String,
}

/// `pid` and every process descending from it, read from /proc now (root first, then by
/// PID); with `group`, also every process of that process group and its descendants (a
/// process whose parent exited is given to init, but stays in the job's group).
/// Processes that exit while they are read are left out; an empty list means the root
/// itself has exited.
pub fn tree_of(root: u32, group: Option<u32>) -> Vec<TreeProcess> {
    let mut all = HashMap::new();
    let mut members = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some((ppid, pgid)) = parent_and_group_of(pid) {
            all.insert(pid, ppid);
            if Some(pgid) == group && pid != root {
                members.push(pid);
            }
        }
    }
    let mut found = descendants(root, &all);
    if !found.is_empty() {
        members.sort_unstable();
        for m in members {
            if !found.contains(&m) {
                let below = descendants(m, &all);
                found.extend(
                    below
                        .into_iter()
                        .filter(|p| !found.contains(p))
                        .collect::<Vec<_>>(),
                );
            }
        }
        found[1..].sort_unstable();
    }
    found
        .into_iter()
        .filter_map(|pid| {
            Some(TreeProcess {
                pid,
                ppid: *all.get(&pid)?,
                rss: rss_of(pid)?,
                command: command_of(pid),
            })
        })
        .collect()
}

/// `root` and its descendants in a PID -> parent map: root first, the rest by PID.
pub fn descendants(root: u32, parents: &HashMap<u32, u32>) -> Vec<u32> {
    if !parents.contains_key(&root) {
        return Vec::new();
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        let mut children: Vec<u32> = parents
            .iter()
            .filter(|(pid, ppid)| **ppid == parent && **pid != parent)
            .map(|(pid, _)| *pid)
            .collect();
        children.sort_unstable();
        children.retain(|c| !found.contains(c));
        found.extend(children);
        i += 1;
    }
    found[1..].sort_unstable();
    found
}

/// The parent PID and the process group from /proc/PID/stat.
fn parent_and_group_of(pid: u32) -> Option<(u32, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some((parse_ppid(&stat)?, parse_pgid(&stat)?))
}

/// The parent PID of a /proc/PID/stat line.
pub fn parse_ppid(stat: &str) -> Option<u32> {
    crate::holders::stat_field(stat, 4)?.parse().ok()
}

/// The process group of a /proc/PID/stat line.
fn parse_pgid(stat: &str) -> Option<u32> {
    crate::holders::stat_field(stat, 5)?.parse().ok()
}

/// Resident memory from /proc/PID/statm (pages, times the page size).
fn rss_of(pid: u32) -> Option<Bytes> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(Bytes(pages * page_size()))
}

/// The system's page size.
fn page_size() -> u64 {
    // SAFETY: sysconf reads a constant of the running system and has no other effect.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).ok().filter(|&s| s > 0).unwrap_or(4096)
}

/// The command line, arguments joined by spaces; a kernel thread or a process that just
/// exited gives its name in brackets.
fn command_of(pid: u32) -> String {
    let command = crate::holders::command_line(pid);
    if command.is_empty() {
        let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        format!("[{}]", name.trim())
    } else {
        command
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_is_read_after_a_command_with_spaces_and_parentheses() {
        assert_eq!(
            parse_ppid("4242 (python3 (worker) 1) S 4200 4242 4200 0 -1"),
            Some(4200)
        );
        assert_eq!(parse_ppid("1 (init) S 0 1 1"), Some(0));
        assert_eq!(parse_ppid("garbage"), None);
        assert_eq!(
            parse_pgid("4242 (python3 (worker) 1) S 4200 4242 4200 0 -1"),
            Some(4242)
        );
    }

    #[test]
    fn descendants_are_the_root_then_every_generation_below_it() {
        let parents: HashMap<u32, u32> =
            [(10, 1), (11, 10), (12, 10), (20, 11), (30, 1), (31, 30)].into();
        assert_eq!(descendants(10, &parents), vec![10, 11, 12, 20]);
        assert_eq!(descendants(30, &parents), vec![30, 31]);
        assert!(descendants(99, &parents).is_empty());
    }

    #[test]
    fn this_test_process_is_its_own_tree_with_a_child_it_starts() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let me = std::process::id();
        let tree = tree_of(me, None);
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(tree.first().map(|p| p.pid), Some(me));
        let kid = tree.iter().find(|p| p.pid == child.id()).unwrap();
        assert_eq!(kid.ppid, me);
        assert!(kid.command.starts_with("sleep 5"), "{}", kid.command);
        assert!(tree[0].rss.0 > 0);
    }
}
