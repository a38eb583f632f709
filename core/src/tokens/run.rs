//! Exact token counts of a long run of one ASCII space, tab, vertical tab or form feed,
//! without the tokenizer's regex (which overflows its stack near a million such characters
//! and spends about a microsecond on each).
//!
//! The merge loop is tiktoken's own (`_byte_pair_merge_large`, which it uses for every piece
//! of 100 bytes or more) specialised to a piece whose every substring is the byte repeated,
//! so the rank of a merge depends only on the length it makes.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use tiktoken_rs::{CoreBPE, Rank};

/// The bytes whose runs are counted here: whitespace the regex treats like a space.
pub(super) const RUN_BYTES: [u8; 4] = [b' ', b'\t', 0x0b, 0x0c];

/// Longer runs are estimated from a run of this length: the merge loop holds about
/// 40 bytes per byte of the run.
pub(super) const MAX_SIMULATED_RUN: usize = 1 << 20;

/// Every token id of the encodings tapscope uses is below this (o200k's last is 200,018).
const RANK_SCAN: Rank = 1 << 18;

const NO_TOKEN: Rank = Rank::MAX;

/// For each of [`RUN_BYTES`], the rank of the token that is that byte repeated, by length.
#[derive(Debug)]
pub(super) struct RunRanks {
    by_byte: [Vec<Rank>; RUN_BYTES.len()],
}

impl RunRanks {
    /// Reads the ranks off the encoding's vocabulary (tens of milliseconds, once).
    pub(super) fn of(bpe: &CoreBPE) -> Self {
        let mut by_byte: [Vec<Rank>; RUN_BYTES.len()] = Default::default();
        for rank in 0..RANK_SCAN {
            let Ok(bytes) = bpe.decode_bytes(&[rank]) else {
                continue;
            };
            let Some(slot) = bytes
                .first()
                .and_then(|first| RUN_BYTES.iter().position(|b| b == first))
            else {
                continue;
            };
            if bytes.iter().all(|b| *b == RUN_BYTES[slot]) {
                let lengths = &mut by_byte[slot];
                if lengths.len() <= bytes.len() {
                    lengths.resize(bytes.len() + 1, NO_TOKEN);
                }
                lengths[bytes.len()] = rank;
            }
        }
        Self { by_byte }
    }

    /// The tokens of `byte` repeated `length` times as one piece, and whether that is exact
    /// (runs over [`MAX_SIMULATED_RUN`] are scaled up from one of that length).
    pub(super) fn tokens(&self, byte: u8, length: usize) -> (usize, bool) {
        let Some(slot) = RUN_BYTES.iter().position(|b| *b == byte) else {
            return (length, false);
        };
        let ranks = &self.by_byte[slot];
        if length <= MAX_SIMULATED_RUN {
            return (merge(ranks, length), true);
        }
        let sample = merge(ranks, MAX_SIMULATED_RUN);
        let scaled = sample as f64 * length as f64 / MAX_SIMULATED_RUN as f64;
        (scaled.round() as usize, false)
    }
}

/// One part of the piece: it runs to `end`; merging it with the next part would end at
/// `next_end` with rank `next_rank`.
struct Part {
    prev: u32,
    end: u32,
    next_end: u32,
    next_rank: Rank,
}

/// The number of tokens BPE makes of a run of `length` (at most [`MAX_SIMULATED_RUN`]) equal
/// bytes whose run tokens have `ranks` by length: the lowest-ranked merge first, the
/// leftmost among equals, exactly as tiktoken does.
fn merge(ranks: &[Rank], length: usize) -> usize {
    if length < 2 {
        return length;
    }
    let rank_of = |len: u32| ranks.get(len as usize).copied().unwrap_or(NO_TOKEN);
    // Indexes fit in u32: the run is at most MAX_SIMULATED_RUN long.
    let n = length as u32;
    let mut parts: Vec<Part> = (0..n)
        .map(|i| Part {
            prev: i.wrapping_sub(1),
            end: i + 1,
            next_end: i + 2,
            next_rank: NO_TOKEN,
        })
        .collect();
    // A merge as one number: rank, then start, so the heap's minimum is tiktoken's choice.
    let key = |rank: Rank, start: u32| Reverse(u64::from(rank) << 32 | u64::from(start));
    let mut heap = BinaryHeap::with_capacity(length);
    let pair = rank_of(2);
    if pair != NO_TOKEN {
        for start in 0..n - 1 {
            heap.push(key(pair, start));
            parts[start as usize].next_rank = pair;
        }
    }
    let propose =
        |parts: &mut [Part], heap: &mut BinaryHeap<Reverse<u64>>, start: u32, next_end: u32| {
            let part = &mut parts[start as usize];
            part.next_end = next_end;
            part.next_rank = NO_TOKEN;
            if next_end <= n {
                let rank = rank_of(next_end - start);
                if rank != NO_TOKEN {
                    heap.push(key(rank, start));
                    part.next_rank = rank;
                }
            }
        };
    while let Some(Reverse(merge)) = heap.pop() {
        let (rank, left) = ((merge >> 32) as Rank, merge as u32);
        if rank != parts[left as usize].next_rank {
            continue; // superseded by a later merge
        }
        let right = parts[left as usize].end;
        let right_end = parts[left as usize].next_end;
        let right_next_end = parts[right as usize].next_end;
        parts[left as usize].end = right_end;
        propose(&mut parts, &mut heap, left, right_next_end);
        if right_end < n {
            parts[right_end as usize].prev = left;
        }
        if left > 0 {
            let prev = parts[left as usize].prev;
            propose(&mut parts, &mut heap, prev, right_end);
        }
        parts[right as usize].next_rank = NO_TOKEN;
    }
    let mut tokens = 0;
    let mut at = 0;
    while at < n {
        tokens += 1;
        at = parts[at as usize].end;
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_as_tiktoken_does_on_runs_of_every_length_it_can_count() {
        let bpe = tiktoken_rs::o200k_base_singleton();
        let ranks = RunRanks::of(bpe);
        for byte in RUN_BYTES {
            for length in (1..300).chain([511, 4097, 65_537]) {
                let run = char::from(byte).to_string().repeat(length);
                let (tokens, exact) = ranks.tokens(byte, length);
                assert!(exact);
                assert_eq!(tokens, bpe.count_ordinary(&run), "{byte:#x} × {length}");
            }
        }
    }

    #[test]
    fn runs_past_the_simulated_length_are_scaled_and_say_so() {
        let ranks = RunRanks::of(tiktoken_rs::o200k_base_singleton());
        let (one, exact) = ranks.tokens(b' ', MAX_SIMULATED_RUN);
        assert!(exact);
        let (three, exact) = ranks.tokens(b' ', 3 * MAX_SIMULATED_RUN);
        assert!(!exact);
        assert_eq!(three, 3 * one);
    }
}
