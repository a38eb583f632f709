//! `TokenChange`: pruned tokens then (as recorded) and now (under new rules), in words.

use std::fmt;

use crate::tokens::TokenCount;

/// Pruned tokens as recorded and under the new rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenChange {
    pub then: usize,
    pub now: TokenCount,
}

impl TokenChange {
    pub fn changed(&self) -> bool {
        self.now.tokens() != self.then
    }

    /// `617 → 178 tokens (−439, −71.2%)` with `arrow` between then and now (`->` where a
    /// font lacks `→`), or `617 tokens, unchanged`; an estimate starts with `≈`.
    pub fn describe(&self, arrow: &str) -> String {
        let (then, now) = (self.then, self.now.tokens());
        if now == then {
            return format!("{} tokens, unchanged", self.now);
        }
        let sign = if now < then { '−' } else { '+' };
        let delta = now.abs_diff(then);
        let percent = delta as f64 * 100.0 / then.max(1) as f64;
        format!(
            "{then} {arrow} {} tokens ({sign}{delta}, {sign}{percent:.1}%)",
            self.now
        )
    }
}

impl std::ops::Add for TokenChange {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        Self {
            then: self.then + other.then,
            now: self.now + other.now,
        }
    }
}

impl fmt::Display for TokenChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("→"))
    }
}

#[cfg(test)]
mod tests {
    use super::TokenChange;
    use crate::tokens::TokenCount::{Estimate, Exact};

    fn change(then: usize, now: crate::tokens::TokenCount) -> String {
        TokenChange { then, now }.to_string()
    }

    #[test]
    fn changes_read_as_then_now_and_the_difference() {
        assert_eq!(change(617, Exact(190)), "617 → 190 tokens (−427, −69.2%)");
        assert_eq!(change(200, Exact(210)), "200 → 210 tokens (+10, +5.0%)");
        assert_eq!(change(5, Exact(5)), "5 tokens, unchanged");
        assert_eq!(change(0, Estimate(3)), "0 → ≈3 tokens (+3, +300.0%)");
        let sum = TokenChange {
            then: 2,
            now: Exact(1),
        } + TokenChange {
            then: 3,
            now: Estimate(3),
        };
        assert_eq!(
            sum,
            TokenChange {
                then: 5,
                now: Estimate(4)
            }
        );
        assert_eq!(sum.describe("->"), "5 -> ≈4 tokens (−1, −20.0%)");
    }
}
