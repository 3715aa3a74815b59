//! Which GPU keeps the optimizer state of which parameter (ZeRO stage 1).
//!
//! Every GPU holds all weights and computes all gradients, as in plain data parallelism;
//! each parameter's AdamW moments live on one GPU only, its owner, which alone updates
//! that parameter and then sends the new value to the others. Parameters are dealt out
//! whole, largest first, each to the GPU with the fewest elements so far, so the shares
//! differ by at most one parameter's size.

use serde::{Deserialize, Serialize};

use crate::units::Bytes;

/// The owner of every parameter, in the model's visiting order (the same on every peer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardPlan {
    /// Peers.
    pub world: usize,
    /// `owner[i]`: the rank that keeps parameter `i`'s optimizer state.
    pub owner: Vec<usize>,
    /// Elements of each parameter, in the same order.
    pub elements: Vec<usize>,
}

impl ShardPlan {
    /// Deals parameters of `elements` sizes out to `world` peers, largest first, each to
    /// the least loaded peer (the lowest rank on a tie).
    pub fn balance(elements: &[usize], world: usize) -> Self {
        let world = world.max(1);
        let mut order: Vec<usize> = (0..elements.len()).collect();
        // Largest first; equal sizes keep their visiting order, so every peer computes
        // the same plan.
        order.sort_by(|&a, &b| elements[b].cmp(&elements[a]).then(a.cmp(&b)));
        let mut load = vec![0usize; world];
        let mut owner = vec![0usize; elements.len()];
        for i in order {
            let rank = (0..world).min_by_key(|&r| (load[r], r)).unwrap_or(0);
            owner[i] = rank;
            load[rank] += elements[i];
        }
        Self {
            world,
            owner,
            elements: elements.to_vec(),
        }
    }

    /// Elements whose optimizer state `rank` keeps.
    pub fn elements_of(&self, rank: usize) -> usize {
        self.owner
            .iter()
            .zip(&self.elements)
            .filter(|(o, _)| **o == rank)
            .map(|(_, e)| e)
            .sum()
    }

    /// Parameters (tensors) `rank` owns.
    pub fn params_of(&self, rank: usize) -> usize {
        self.owner.iter().filter(|o| **o == rank).count()
    }

    /// Optimizer-state bytes on `rank` at `bytes_per_element` (AdamW in f32: two
    /// moments, 8 bytes).
    pub fn state_bytes(&self, rank: usize, bytes_per_element: u64) -> Bytes {
        Bytes(self.elements_of(rank) as u64 * bytes_per_element)
    }

    /// All parameters' elements.
    pub fn total_elements(&self) -> usize {
        self.elements.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_has_exactly_one_owner_and_the_shares_add_up() {
        let sizes = [4096, 64, 64, 262_144, 16_384, 16_384, 64, 1, 0, 262_144];
        let plan = ShardPlan::balance(&sizes, 2);
        assert_eq!(plan.owner.len(), sizes.len());
        assert!(plan.owner.iter().all(|&o| o < 2));
        assert_eq!(
            plan.elements_of(0) + plan.elements_of(1),
            sizes.iter().sum::<usize>()
        );
        assert_eq!(plan.params_of(0) + plan.params_of(1), sizes.len());
    }

    #[test]
    fn shares_differ_by_at_most_the_largest_parameter() {
        let sizes: Vec<usize> = (1..=40).map(|i| (i * 7919) % 1000 + 1).collect();
        for world in [2, 3, 4] {
            let plan = ShardPlan::balance(&sizes, world);
            let loads: Vec<usize> = (0..world).map(|r| plan.elements_of(r)).collect();
            let (min, max) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
            assert!(max - min <= *sizes.iter().max().unwrap(), "{loads:?}");
        }
    }

    #[test]
    fn two_equal_halves_go_one_to_each_peer() {
        let plan = ShardPlan::balance(&[100, 100], 2);
        assert_eq!(plan.owner, vec![0, 1]);
        assert_eq!(plan.state_bytes(1, 8), Bytes(800));
    }

    #[test]
    fn one_peer_owns_everything() {
        let plan = ShardPlan::balance(&[3, 5, 7], 1);
        assert_eq!(plan.owner, vec![0, 0, 0]);
        assert_eq!(plan.elements_of(0), plan.total_elements());
    }
}
