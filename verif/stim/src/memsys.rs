//! The core's data-side memory system: TLBs, three cache levels, address translation and
//! data sources. It decides, from the addresses a program touches, the translation outcome
//! (TLB hit or walk, with latency), the data source and cache events, and the latency of a
//! load or store. State is real (set-associative LRU arrays), so a small array streamed in
//! a loop hits the L1D and a random walk over a large region misses to DRAM and walks.

use crate::rng::{hash64, Rng};
use crate::uop::{default_mem_lat, untagged, MemAccess, MemEvents, Tlb, KERNEL_VA_BASE};
use spe_defs::impdef::data_source;

/// Cache line size in bytes (log2).
const LINE_LOG2: u32 = 6;
/// Translation granule in bytes (log2).
const PAGE_LOG2: u32 = 12;
/// Physical address bit (above the DRAM base) that selects the remote NUMA node.
const REMOTE_NODE_BIT: u64 = 1 << 44;
/// Physical pages user memory is spread over (64 GiB).
const USER_PHYS_PAGES: u64 = 1 << 24;

/// A set-associative array of tags with LRU replacement (caches and TLBs).
#[derive(Clone, Debug)]
struct Assoc {
    sets: usize,
    ways: usize,
    tags: Vec<u64>,
    stamps: Vec<u64>,
    clock: u64,
}

impl Assoc {
    fn new(sets: usize, ways: usize) -> Assoc {
        Assoc {
            sets,
            ways,
            tags: vec![u64::MAX; sets * ways],
            stamps: vec![0; sets * ways],
            clock: 0,
        }
    }

    /// Looks `key` up; on a miss inserts it over the least recently used way.
    /// Returns true on a hit.
    fn touch(&mut self, key: u64) -> bool {
        self.clock += 1;
        let set = (hash64(key) as usize) % self.sets;
        let ways = set * self.ways..(set + 1) * self.ways;
        if let Some(i) = ways.clone().find(|&i| self.tags[i] == key) {
            self.stamps[i] = self.clock;
            return true;
        }
        let victim = ways
            .min_by_key(|&i| self.stamps[i])
            .unwrap_or(set * self.ways);
        self.tags[victim] = key;
        self.stamps[victim] = self.clock;
        false
    }
}

/// Probabilities that shape where data comes from beyond the core's own caches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemSysParams {
    /// Fraction of user pages that live on the remote node (REMOTE source on an LLC miss).
    pub remote_fraction: f64,
    /// Probability that an L2 miss hits in another core or cluster (peer data sources).
    pub peer_rate: f64,
    /// Physical base of DRAM.
    pub dram_base: u64,
    /// Probability that a walk is a slow two-stage walk (no draw when 0).
    pub slow_walk_rate: f64,
}

/// TLBs and caches of one core.
#[derive(Clone, Debug)]
pub struct MemSystem {
    params: MemSysParams,
    l1_tlb: Assoc,
    l2_tlb: Assoc,
    l1d: Assoc,
    l2: Assoc,
    llc: Assoc,
}

impl MemSystem {
    /// 48-entry-class L1 TLB, 1024-entry L2 TLB, 32 KiB L1D, 256 KiB L2, 2 MiB LLC.
    pub fn new(params: MemSysParams) -> MemSystem {
        MemSystem {
            params,
            l1_tlb: Assoc::new(12, 4),
            l2_tlb: Assoc::new(256, 4),
            l1d: Assoc::new(64, 8),
            l2: Assoc::new(512, 8),
            llc: Assoc::new(2048, 16),
        }
    }

    /// Physical address of a virtual address: the kernel half is a linear map onto DRAM;
    /// user pages are scattered by a hash, a `remote_fraction` of them on the remote node.
    /// The tag byte of `va` is ignored (TBI).
    pub fn translate(&self, va: u64) -> u64 {
        let va = untagged(va);
        let dram = self.params.dram_base;
        let off = va & ((1 << PAGE_LOG2) - 1);
        if va >= KERNEL_VA_BASE {
            return dram + (va & 0x00ff_ffff_ffff);
        }
        let h = hash64((va >> PAGE_LOG2) ^ 0x005E_ED0F_9A6E);
        let page = h % USER_PHYS_PAGES;
        let remote = ((h >> 40) as f64 / (1u64 << 24) as f64) < self.params.remote_fraction;
        dram + (page << PAGE_LOG2) + off + if remote { REMOTE_NODE_BIT } else { 0 }
    }

    /// Performs a data access of `size` bytes at `va`, updating TLB and cache state.
    /// The tag byte of `va` (TBI) is recorded but plays no part in the access.
    pub fn access(&mut self, va: u64, size: u64, rng: &mut Rng) -> MemAccess {
        let page = untagged(va) >> PAGE_LOG2;
        let (tlb, xlat_lat) = if self.l1_tlb.touch(page) {
            (Tlb::Hit, rng.range(0, 1) as u32)
        } else if self.l2_tlb.touch(page) {
            (Tlb::Hit, rng.range(3, 6) as u32)
        } else {
            // A walk: a few table reads, sometimes from DRAM.
            let mut extra = if rng.chance(0.2) {
                rng.range(100, 200)
            } else {
                0
            };
            // A two-stage walk under a hypervisor whose table reads all miss to DRAM (up to
            // 24 of them) on a loaded system: hundreds to tens of thousands of cycles.
            if rng.chance(self.params.slow_walk_rate) {
                // Log-uniform, the long ones rarer: 2^8 to 2^16 cycles.
                let top = rng.range(8, 15);
                extra += 1 << rng.range(8, top);
                extra += rng.below(extra);
            }
            (Tlb::Walk, (rng.range(20, 60) + extra) as u32)
        };
        let pa = self.translate(va);
        let line = pa >> LINE_LOG2;
        let source = if self.l1d.touch(line) {
            data_source::L1D
        } else if self.l2.touch(line) {
            data_source::L2
        } else if rng.chance(self.params.peer_rate) {
            [
                data_source::PEER_CORE,
                data_source::LOCAL_CLUSTER,
                data_source::PEER_CLUSTER,
            ][rng.below(3) as usize]
        } else if self.llc.touch(line) {
            data_source::SYSTEM_CACHE
        } else if (pa - self.params.dram_base) & REMOTE_NODE_BIT != 0 {
            data_source::REMOTE
        } else {
            data_source::DRAM
        };
        let misaligned = size > 1 && !va.is_multiple_of(size);
        let base = default_mem_lat(source);
        let mem_lat =
            base + rng.below(u64::from(base / 8) + 1) as u32 + if misaligned { 2 } else { 0 };
        MemAccess {
            va,
            pa,
            tlb,
            xlat_lat,
            source,
            events: MemEvents::for_source(source),
            misaligned,
            mem_lat,
            ns_mem: Self::ns_page(page),
        }
    }

    /// A quarter of the pages are Non-secure memory (what Secure-state software maps with
    /// its descriptors' NS bit), by a hash of the page number (no random draw).
    pub fn ns_page(page: u64) -> bool {
        hash64(page ^ 0x0A5E_C0DE).is_multiple_of(4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sys() -> MemSystem {
        MemSystem::new(MemSysParams {
            remote_fraction: 0.0,
            peer_rate: 0.0,
            dram_base: 0x8000_0000,
            slow_walk_rate: 0.0,
        })
    }

    #[test]
    fn a_small_array_streamed_twice_hits_the_l1d_and_the_tlb() {
        let mut m = sys();
        let mut rng = Rng::new(1);
        for a in (0..8192u64).step_by(8) {
            m.access(0x4000_0000 + a, 8, &mut rng);
        }
        for a in (0..8192u64).step_by(8) {
            let r = m.access(0x4000_0000 + a, 8, &mut rng);
            assert_eq!(r.source, data_source::L1D);
            assert_eq!(r.tlb, Tlb::Hit);
            assert!(!r.misaligned);
        }
    }

    #[test]
    fn random_accesses_over_a_large_region_walk_and_miss_to_dram() {
        let mut m = sys();
        let mut rng = Rng::new(2);
        let (mut walks, mut dram) = (0, 0);
        for _ in 0..2000 {
            let va = 0x10_0000_0000 + (rng.below(1 << 30) & !7);
            let r = m.access(va, 8, &mut rng);
            walks += r.tlb.walk() as u32;
            dram += (r.source == data_source::DRAM) as u32;
            assert_eq!(r.events, MemEvents::for_source(r.source));
        }
        assert!(walks > 1500 && dram > 1500, "walks {walks} dram {dram}");
    }

    #[test]
    fn translation_keeps_the_page_offset_and_maps_the_kernel_linearly() {
        let m = MemSystem::new(MemSysParams {
            remote_fraction: 1.0,
            peer_rate: 0.0,
            dram_base: crate::core_params::MAX_DRAM_BASE,
            slow_walk_rate: 0.0,
        });
        assert_eq!(m.translate(0x1234_5678) & 0xfff, 0x678);
        let dram = crate::core_params::MAX_DRAM_BASE;
        assert!((m.translate(0x1234_5678) - dram) & REMOTE_NODE_BIT != 0);
        let k = m.translate(0xffff_8000_0000_1040);
        assert_eq!(k & 0xfff, 0x040);
        assert_eq!((k - dram) & REMOTE_NODE_BIT, 0);
        // The highest DRAM base still gives PAs of at most 52 bits.
        assert!((crate::core_params::MAX_DRAM_BASE..1 << 52).contains(&k));
        assert!(m.translate(0x0000_ffff_ffff_f000) < 1 << 52);
        assert!(m.translate(0xffff_ffff_ffff_f000) < 1 << 52);
    }

    /// A tagged pointer (TBI) reaches the same page, line and data source as its untagged
    /// address, and the access reports the tagged VA.
    #[test]
    fn the_tag_byte_is_ignored_by_translation_and_kept_in_the_va() {
        let mut m = sys();
        let mut rng = Rng::new(3);
        let va = 0x0000_aaaa_e000_1238;
        let tagged = 0xb400_0000_0000_0000 | va;
        assert_eq!(untagged(tagged), va);
        assert_eq!(untagged(0xffff_8000_0000_1040), 0xffff_8000_0000_1040);
        assert_eq!(untagged(0x12ff_8000_0000_1040), 0xffff_8000_0000_1040);
        assert_eq!(m.translate(tagged), m.translate(va));
        m.access(va, 8, &mut rng);
        let r = m.access(tagged, 8, &mut rng);
        assert_eq!(
            (r.va, r.source, r.tlb),
            (tagged, data_source::L1D, Tlb::Hit)
        );
        assert_eq!(r.pa, m.translate(va));
    }
}
