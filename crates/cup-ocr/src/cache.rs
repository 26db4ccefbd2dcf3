//! Results by the pixels they came from: an unchanged window costs one
//! pass of a fast hash over its bytes, not a recognition.

use std::collections::VecDeque;

use crate::image::Rgba;
use crate::lines::OcrLine;

/// Results a [`Cache`] keeps by default (windows and regions read lately).
pub const DEFAULT_ENTRIES: usize = 16;

/// What identifies an image: its size and a 64-bit hash of its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    width: usize,
    height: usize,
    hash: u64,
}

/// The key of `image`: a multiply-rotate hash over its bytes eight at a
/// time (about a millisecond for a 1920x1080 window).
pub fn key(image: &Rgba<'_>) -> Key {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ (image.pixels.len() as u64);
    let mut words = image.pixels.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(K);
    }
    for &b in words.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
    }
    Key {
        width: image.width,
        height: image.height,
        hash: h,
    }
}

/// The last results, newest first, at most `capacity` of them.
#[derive(Debug)]
pub struct Cache {
    entries: VecDeque<(Key, Vec<OcrLine>)>,
    capacity: usize,
    hits: u64,
}

impl Cache {
    /// An empty cache of `capacity` results.
    pub fn new(capacity: usize) -> Self {
        Cache {
            entries: VecDeque::with_capacity(capacity),
            capacity: capacity.max(1),
            hits: 0,
        }
    }

    /// The result for `key`, if kept (it becomes the newest).
    pub fn get(&mut self, key: &Key) -> Option<Vec<OcrLine>> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        let entry = self.entries.remove(at)?;
        let lines = entry.1.clone();
        self.entries.push_front(entry);
        self.hits += 1;
        Some(lines)
    }

    /// Keeps `lines` for `key`, dropping the oldest result when full.
    pub fn put(&mut self, key: Key, lines: Vec<OcrLine>) {
        self.entries.retain(|(k, _)| *k != key);
        if self.entries.len() >= self.capacity {
            self.entries.pop_back();
        }
        self.entries.push_front((key, lines));
    }

    /// Results kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reads answered from the cache so far.
    pub fn hits(&self) -> u64 {
        self.hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(t: &str) -> OcrLine {
        OcrLine {
            text: t.into(),
            bounds: (0, 0, 1, 1),
            confidence: 90.0,
        }
    }

    #[test]
    fn one_pixel_changed_is_another_image() {
        let mut px = vec![7u8; 4 * 30 * 20];
        let a = key(&Rgba {
            width: 30,
            height: 20,
            pixels: &px,
        });
        px[1234] = 8;
        let b = key(&Rgba {
            width: 30,
            height: 20,
            pixels: &px,
        });
        assert_ne!(a, b);
        // The same bytes as another shape are another image too.
        let c = key(&Rgba {
            width: 20,
            height: 30,
            pixels: &px,
        });
        assert_ne!(b, c);
    }

    #[test]
    fn the_oldest_result_goes_when_full() {
        let mut cache = Cache::new(2);
        let px: Vec<Vec<u8>> = (0..3u8).map(|i| vec![i; 16]).collect();
        let keys: Vec<Key> = px
            .iter()
            .map(|p| {
                key(&Rgba {
                    width: 2,
                    height: 2,
                    pixels: p,
                })
            })
            .collect();
        cache.put(keys[0], vec![line("a")]);
        cache.put(keys[1], vec![line("b")]);
        assert_eq!(cache.get(&keys[0]), Some(vec![line("a")]));
        cache.put(keys[2], vec![line("c")]);
        assert_eq!(cache.get(&keys[1]), None, "b was the oldest");
        assert_eq!(cache.get(&keys[0]), Some(vec![line("a")]));
        assert_eq!((cache.len(), cache.hits()), (2, 2));
    }
}
