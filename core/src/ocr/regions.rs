//! A grey picture split at mid-grey into connected regions, dark ones 8-connected and light
//! ones 4-connected, so that regions nest as a tree (a light hole inside dark ink, a dark
//! letter on a light bar): each pixel's region, and each region's colour, box, size and the
//! region above its first pixel, the one enclosing it.
//!
//! Labelled here in one raster pass with a union-find rather than by `imageproc`'s
//! `connected_components`, which labels one connectivity a call: the two calls this needs
//! take two to four times as long as this pass on the screenshots OCR reads
//! (`benches/ocr_prepare.rs`, docs/ocr.md).

/// Below this grey a pixel is dark.
const MID: u8 = 128;

/// One connected region's colour, box, size and the region above its first pixel.
#[derive(Clone, Copy, Debug)]
pub(super) struct Region {
    pub(super) dark: bool,
    pub(super) left: u32,
    pub(super) top: u32,
    pub(super) right: u32,
    pub(super) bottom: u32,
    pub(super) area: u64,
    /// The region just above its first pixel in raster order: the one enclosing it
    /// (regions nest as a tree under these connectivities); `None` on the top row.
    pub(super) parent: Option<u32>,
}

/// Each pixel's region, numbered in the raster order of their first pixels.
pub(super) struct Regions {
    pub(super) label: Vec<u32>,
    pub(super) regions: Vec<Region>,
}

impl Regions {
    /// The regions of `src` (`w` × `h` greys): dark (under mid-grey) ones 8-connected,
    /// light ones 4-connected.
    pub(super) fn of(src: &[u8], w: usize, h: usize) -> Self {
        let dark = |i: usize| src[i] < MID;
        let mut label = vec![0u32; w * h];
        let mut sets = UnionFind::default();
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                let d = dark(i);
                let mut found: Option<u32> = None;
                let mut join = |j: usize| {
                    if dark(j) == d {
                        let l = label[j];
                        match found {
                            None => found = Some(l),
                            Some(f) => sets.union(f, l),
                        }
                    }
                };
                if x > 0 {
                    join(i - 1);
                }
                if y > 0 {
                    join(i - w);
                    // Dark regions are 8-connected: diagonals too.
                    if d && x > 0 {
                        join(i - w - 1);
                    }
                    if d && x + 1 < w {
                        join(i - w + 1);
                    }
                }
                label[i] = found.unwrap_or_else(|| sets.make());
            }
        }
        // Roots renumbered by first pixel, and each region measured.
        let mut number = vec![u32::MAX; sets.parent.len()];
        let mut regions: Vec<Region> = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                let root = sets.find(label[i]) as usize;
                if number[root] == u32::MAX {
                    number[root] = regions.len() as u32;
                    let parent = (y > 0).then(|| label[i - w]);
                    regions.push(Region {
                        dark: dark(i),
                        left: x as u32,
                        top: y as u32,
                        right: x as u32,
                        bottom: y as u32,
                        area: 0,
                        parent,
                    });
                }
                let n = number[root];
                label[i] = n;
                let r = &mut regions[n as usize];
                r.left = r.left.min(x as u32);
                r.right = r.right.max(x as u32);
                r.bottom = y as u32;
                r.area += 1;
            }
        }
        Self { label, regions }
    }
}

/// Disjoint sets of provisional labels, by path halving and union by lower label.
#[derive(Default)]
struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    fn make(&mut self) -> u32 {
        let l = self.parent.len() as u32;
        self.parent.push(l);
        l
    }

    fn find(&mut self, mut l: u32) -> u32 {
        while self.parent[l as usize] != l {
            let grand = self.parent[self.parent[l as usize] as usize];
            self.parent[l as usize] = grand;
            l = grand;
        }
        l
    }

    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            let (lo, hi) = (a.min(b), a.max(b));
            self.parent[hi as usize] = lo;
        }
    }
}
