//! A small seeded pseudo-random generator (xorshift64*, seeded through splitmix64).
//!
//! Every random decision of the stimulus comes from one of these, so a run is a pure
//! function of its seed: the seed printed by a failing run replays it exactly. No external
//! crate, so the sequence never changes under a dependency update.

/// One splitmix64 step: advances `state` and returns a well-mixed 64-bit value. Also used
/// as a stateless hash (for address translation) and to derive independent seeds.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Stateless 64-bit hash of `x` (one splitmix64 step from `x`).
pub fn hash64(x: u64) -> u64 {
    let mut s = x;
    splitmix64(&mut s)
}

/// xorshift64* generator.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        let mut s = seed;
        let mut state = splitmix64(&mut s);
        if state == 0 {
            // xorshift has a fixed point at zero.
            state = 0x9E37_79B9_7F4A_7C15;
        }
        Rng { state }
    }

    /// An independent generator derived from this one's seed and `salt`, so that adding
    /// draws in one component does not shift the sequence of another.
    pub fn derive(seed: u64, salt: u64) -> Rng {
        Rng::new(hash64(seed ^ hash64(salt)))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `lo..=hi` (`lo` when `hi < lo`).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            lo
        } else {
            lo + self.below(hi - lo + 1)
        }
    }

    /// Uniform in `lo..=hi` for `u32` bounds given as a pair.
    pub fn range32(&mut self, (lo, hi): (u32, u32)) -> u32 {
        self.range(u64::from(lo), u64::from(hi)) as u32
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p` (never for `p <= 0`, always for `p >= 1`).
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    /// Index chosen with probability proportional to `weights` (0 if all are zero).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < u64::from(w) {
                return i;
            }
            x -= u64::from(w);
        }
        0
    }
}

/// Cyclic draws, as SystemVerilog's `randc`: each value of `0..n` once, in a random order,
/// before any comes again. A random choice among a few cases met only now and then (an
/// AND term at a context switch) reaches every case within `n` draws, where independent
/// draws leave one case out of ten draws a tenth of the time and more.
#[derive(Clone, Debug)]
pub struct Cyclic {
    n: u32,
    left: Vec<u32>,
}

impl Cyclic {
    /// Draws over `0..n` (`n` at least 1).
    pub fn new(n: u32) -> Cyclic {
        assert!(n > 0, "a cyclic draw needs at least one value");
        Cyclic {
            n,
            left: Vec::new(),
        }
    }

    /// The next value: uniform among those this cycle has not drawn yet (a new cycle of
    /// all `n` after the last).
    pub fn next(&mut self, r: &mut Rng) -> u32 {
        if self.left.is_empty() {
            self.left = (0..self.n).collect();
        }
        let i = r.below(self.left.len() as u64) as usize;
        self.left.swap_remove(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyclic_draws_give_each_value_once_per_cycle_in_an_order_the_seed_decides() {
        let cycles = |seed: u64| -> Vec<Vec<u32>> {
            let (mut c, mut r) = (Cyclic::new(10), Rng::new(seed));
            (0..3)
                .map(|_| (0..10).map(|_| c.next(&mut r)).collect())
                .collect()
        };
        for seed in 0..50 {
            for cycle in cycles(seed) {
                let mut sorted = cycle.clone();
                sorted.sort_unstable();
                assert_eq!(
                    sorted,
                    (0..10).collect::<Vec<_>>(),
                    "seed {seed}: {cycle:?}"
                );
            }
        }
        let orders: std::collections::HashSet<Vec<u32>> =
            (0..50).map(|s| cycles(s)[0].clone()).collect();
        assert!(orders.len() > 40, "{} orders of 50 seeds", orders.len());
        let a = cycles(3);
        assert_ne!(a[0], a[1], "a new order each cycle");
    }

    #[test]
    fn same_seed_gives_the_same_sequence_and_different_seeds_differ() {
        let a: Vec<u64> = (0..8)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..8)
            .map({
                let mut r = Rng::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let c: Vec<u64> = (0..8)
            .map({
                let mut r = Rng::new(8);
                move |_| r.next_u64()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(Rng::new(0).next_u64(), 0);
    }

    #[test]
    fn bounded_draws_stay_in_range() {
        let mut r = Rng::new(1);
        for _ in 0..10_000 {
            assert!(r.below(10) < 10);
            let x = r.range(5, 9);
            assert!((5..=9).contains(&x));
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert_eq!(r.below(0), 0);
        assert_eq!(r.range(4, 2), 4);
        assert!(!r.chance(0.0));
        assert!(r.chance(1.0));
        assert_eq!(r.weighted(&[0, 0, 5]), 2);
    }
}
