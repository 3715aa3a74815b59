//! burn's growth pool on CUDA (cubecl 0.10's `SubSlices` configuration), so the estimate
//! can say how many pages the live tensors need.
//!
//! cubecl-cuda sets the largest page to a quarter of the card. Below it, pools of pages a
//! quarter as large each (down to 32 MiB / 4), and each pool takes tensors up to its page
//! size / 2^k (k = 1, 2, ...): on an H200 (140 GiB) a 128 MiB tensor goes to the pool of
//! 2.2 GiB pages, a 32 MiB one to the pool of 562 MiB pages. A pool allocates a whole page
//! when no free slice is large enough, and keeps it. So the reserved memory grows in
//! steps of a page: `gpu` f32 at batch 64 needs two 2.2 GiB pages for its
//! `[batch, seq, d_ff]` tensors where batch 32 (64 MiB tensors, in 562 MiB pages) needed
//! none (measured: 4.0 GiB vs 9.1 GiB NVML, docs/results/2026-12-01-h200-estimate).

use crate::units::Bytes;

const MIB: u64 = 1024 * 1024;

/// One pool: tensors up to `max_slice` bytes share pages of `page` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pool {
    /// Largest tensor the pool takes.
    pub max_slice: u64,
    /// Page size.
    pub page: u64,
}

/// The pools of a card with `total` bytes, smallest first (cubecl-runtime
/// `MemoryManagement::from_configuration`, alignment 256).
pub fn pools(total: Bytes) -> Vec<Pool> {
    let align = 256;
    let max_page = total.0 / 4;
    let mut current = max_page;
    let mut base = 1u32;
    let mut out = Vec::new();
    while current >= 32 * MIB {
        current /= 4;
        current = current.next_multiple_of(align);
        out.push(Pool {
            max_slice: current / 2u64.pow(base),
            page: current,
        });
        base += 1;
    }
    out.reverse();
    let top = max_page / align * align;
    out.push(Pool {
        max_slice: top,
        page: top,
    });
    out
}

/// Bytes the pools reserve for `tensors` (size of one, how many) alive together: per
/// pool, the pages that hold them when each tensor sits whole in one page (a slice never
/// spans two pages), packed first-fit from the largest: eight 1 GiB tensors fill an
/// 8.8 GiB page and the ninth takes a new one, leaving 0.8 GiB in each no tensor of that
/// pool fits. The bottom of the growth pool's range: slices freed in between can leave
/// holes a later tensor does not fit (fragmentation), which [`one_page_each`] bounds.
pub fn reserved(total: Bytes, tensors: &[(u64, u64)]) -> Bytes {
    let pools = pools(total);
    let mut held: Vec<Vec<(u64, u64)>> = vec![Vec::new(); pools.len()];
    let mut exclusive = 0u64;
    for &(size, count) in tensors {
        if size == 0 || count == 0 {
            continue;
        }
        match pools.iter().position(|p| size <= p.max_slice) {
            Some(i) => held[i].push((size.next_multiple_of(256), count)),
            None => exclusive += size * count,
        }
    }
    let paged: u64 = pools
        .iter()
        .zip(held)
        .map(|(p, sizes)| pages_for(p.page, sizes) * p.page)
        .sum();
    Bytes(paged + exclusive)
}

/// Pages of `page` bytes that hold `tensors` (size, how many), each whole in one page,
/// first-fit from the largest.
fn pages_for(page: u64, mut tensors: Vec<(u64, u64)>) -> u64 {
    tensors.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
    // Free bytes of each page opened so far.
    let mut free: Vec<u64> = Vec::new();
    for (size, count) in tensors {
        let mut left = count;
        for f in free.iter_mut() {
            if left == 0 {
                break;
            }
            let fits = (*f / size).min(left);
            *f -= fits * size;
            left -= fits;
        }
        if left > 0 {
            let per_page = (page / size).max(1);
            let new_pages = left.div_ceil(per_page);
            for k in 0..new_pages {
                let here = per_page.min(left - k * per_page);
                free.push(page.saturating_sub(here * size));
            }
        }
    }
    free.len() as u64
}

/// One page of every pool that holds any of `tensors`: what fragmentation can add to
/// [`reserved`] before the pool's own reuse catches up (the top of the growth pool's
/// predicted range).
pub fn one_page_each(total: Bytes, tensors: &[(u64, u64)]) -> Bytes {
    let pools = pools(total);
    let mut used = vec![false; pools.len()];
    for &(size, count) in tensors {
        if size == 0 || count == 0 {
            continue;
        }
        if let Some(i) = pools.iter().position(|p| size <= p.max_slice) {
            used[i] = true;
        }
    }
    Bytes(
        pools
            .iter()
            .zip(&used)
            .filter(|(_, &u)| u)
            .map(|(p, _)| p.page)
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_h200_puts_128_mib_tensors_in_2_gib_pages_and_32_mib_ones_in_562_mib_pages() {
        let h200 = Bytes(143_771 * MIB);
        let p = pools(h200);
        let of = |size: u64| p.iter().find(|p| size <= p.max_slice).map(|p| p.page / MIB);
        assert_eq!(of(128 * MIB), Some(2246));
        assert_eq!(of(32 * MIB), Some(561));
        assert_eq!(of(64 * MIB), Some(561));
        let page = |size: u64| p.iter().find(|p| size <= p.max_slice).unwrap().page;
        // Three 128 MiB tensors take one page of the 2.2 GiB pool.
        assert_eq!(reserved(h200, &[(128 * MIB, 3)]).0 / MIB, 2246);
        // A tensor never spans two pages: eight 1 GiB tensors fill an 8985 MiB page (a
        // 1 GiB tensor's pool), nine take two, though 9 GiB would fit in 8985 MiB x 1.03.
        let big = page(1024 * MIB);
        assert_eq!(reserved(h200, &[(1024 * MIB, 8)]).0, big);
        assert_eq!(reserved(h200, &[(1024 * MIB, 9)]).0, 2 * big);
        // What one page leaves over (793 MiB) still takes a smaller tensor of the pool
        // that fits in it, and not one that does not.
        assert_eq!(page(700 * MIB), big);
        assert_eq!(reserved(h200, &[(1024 * MIB, 8), (700 * MIB, 1)]).0, big);
        assert_eq!(
            reserved(h200, &[(1024 * MIB, 8), (800 * MIB, 1)]).0,
            2 * big
        );
        // With a 32 MiB tensor beside them, one more page of each pool: 2246 + 561 MiB
        // (pages are not whole MiB, so the sum is compared in bytes).
        assert_eq!(
            one_page_each(h200, &[(128 * MIB, 3), (32 * MIB, 1)]).0,
            page(128 * MIB) + page(32 * MIB)
        );
        // A 1 GiB tensor sits in an 8.8 GiB page (docs/reading-memory.md, explain pool).
        assert_eq!(of(1024 * MIB), Some(8985));
    }

    #[test]
    fn a_real_8_gib_card_gives_a_128_mib_tensor_a_512_mib_page_not_an_h200_page() {
        // What `--vram-budget 8GiB` on an H200 does not emulate (device/ballast.rs).
        let p = pools(Bytes(8 * 1024 * MIB));
        let page = p
            .iter()
            .find(|p| 128 * MIB <= p.max_slice)
            .map(|p| p.page / MIB);
        assert_eq!(page, Some(512));
    }
}
