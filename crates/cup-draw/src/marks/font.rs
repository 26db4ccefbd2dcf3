//! A 5 × 7 bitmap font of the characters of element ids: lowercase letters,
//! digits, `-`, `_`, `:`, `.`, and `?` for anything else. Lowercase letters
//! with descenders (g, j, p, q, y) sit a little higher, as on character
//! LCDs, so every glyph fits the same 7 rows. All glyphs differ, so a label
//! reads back exactly ([`char_of`]).

/// Glyph width in font pixels.
pub(crate) const GLYPH_W: i64 = 5;
/// Glyph height in font pixels.
pub(crate) const GLYPH_H: i64 = 7;
/// Columns from one glyph to the next: the glyph and one blank column.
pub(crate) const ADVANCE: i64 = GLYPH_W + 1;

/// One glyph: a bitmap per row, top to bottom; bit 4 is the leftmost column.
pub(crate) type Glyph = [u8; 7];

/// The glyph drawn for characters outside the font.
pub(crate) const UNKNOWN: char = '?';

/// Parses a glyph from its rows (`#` on, anything else off), at compile time.
const fn g(rows: [&str; 7]) -> Glyph {
    let mut out = [0u8; 7];
    let mut r = 0;
    while r < 7 {
        let bytes = rows[r].as_bytes();
        assert!(bytes.len() == 5, "a glyph row is 5 columns");
        let mut c = 0;
        while c < 5 {
            if bytes[c] == b'#' {
                out[r] |= 1 << (4 - c);
            }
            c += 1;
        }
        r += 1;
    }
    out
}

/// The font.
#[rustfmt::skip]
static GLYPHS: [(char, Glyph); 41] = [
    ('0', g([".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."])),
    ('1', g(["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."])),
    ('2', g([".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"])),
    ('3', g(["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."])),
    ('4', g(["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."])),
    ('5', g(["#####", "#....", "####.", "....#", "....#", "#...#", ".###."])),
    ('6', g(["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."])),
    ('7', g(["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."])),
    ('8', g([".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."])),
    ('9', g([".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."])),
    ('a', g([".....", ".....", ".###.", "....#", ".####", "#...#", ".####"])),
    ('b', g(["#....", "#....", "#.##.", "##..#", "#...#", "#...#", "####."])),
    ('c', g([".....", ".....", ".###.", "#....", "#....", "#...#", ".###."])),
    ('d', g(["....#", "....#", ".##.#", "#..##", "#...#", "#...#", ".####"])),
    ('e', g([".....", ".....", ".###.", "#...#", "#####", "#....", ".###."])),
    ('f', g(["..##.", ".#..#", ".#...", "###..", ".#...", ".#...", ".#..."])),
    ('g', g([".....", ".####", "#...#", "#...#", ".####", "....#", ".###."])),
    ('h', g(["#....", "#....", "#.##.", "##..#", "#...#", "#...#", "#...#"])),
    ('i', g(["..#..", ".....", ".##..", "..#..", "..#..", "..#..", ".###."])),
    ('j', g(["...#.", ".....", "..##.", "...#.", "...#.", "#..#.", ".##.."])),
    ('k', g(["#....", "#....", "#..#.", "#.#..", "##...", "#.#..", "#..#."])),
    ('l', g([".##..", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."])),
    ('m', g([".....", ".....", "##.#.", "#.#.#", "#.#.#", "#...#", "#...#"])),
    ('n', g([".....", ".....", "#.##.", "##..#", "#...#", "#...#", "#...#"])),
    ('o', g([".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."])),
    ('p', g([".....", ".....", "####.", "#...#", "####.", "#....", "#...."])),
    ('q', g([".....", ".....", ".##.#", "#..##", ".####", "....#", "....#"])),
    ('r', g([".....", ".....", "#.##.", "##..#", "#....", "#....", "#...."])),
    ('s', g([".....", ".....", ".###.", "#....", ".###.", "....#", "####."])),
    ('t', g([".#...", ".#...", "###..", ".#...", ".#...", ".#..#", "..##."])),
    ('u', g([".....", ".....", "#...#", "#...#", "#...#", "#..##", ".##.#"])),
    ('v', g([".....", ".....", "#...#", "#...#", "#...#", ".#.#.", "..#.."])),
    ('w', g([".....", ".....", "#...#", "#...#", "#.#.#", "#.#.#", ".#.#."])),
    ('x', g([".....", ".....", "#...#", ".#.#.", "..#..", ".#.#.", "#...#"])),
    ('y', g([".....", ".....", "#...#", "#...#", ".####", "....#", ".###."])),
    ('z', g([".....", ".....", "#####", "...#.", "..#..", ".#...", "#####"])),
    ('-', g([".....", ".....", ".....", ".###.", ".....", ".....", "....."])),
    ('_', g([".....", ".....", ".....", ".....", ".....", ".....", "#####"])),
    (':', g([".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."])),
    ('.', g([".....", ".....", ".....", ".....", ".....", ".##..", ".##.."])),
    ('?', g([".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."])),
];

/// The glyph of `c`: uppercase letters draw as lowercase, characters outside
/// the font as `?`.
pub(crate) fn glyph(c: char) -> Glyph {
    let find = |k: char| GLYPHS.iter().find(|(x, _)| *x == k).map(|(_, g)| *g);
    find(c.to_ascii_lowercase())
        .or_else(|| find(UNKNOWN))
        .unwrap_or([0; 7])
}

/// The character whose glyph is exactly `bitmap`.
pub(crate) fn char_of(bitmap: &Glyph) -> Option<char> {
    GLYPHS.iter().find(|(_, g)| g == bitmap).map(|(c, _)| *c)
}

/// `true` when the pixel at column `col` (0..5) and row `row` (0..7) is on.
pub(crate) fn lit(glyph: &Glyph, col: i64, row: i64) -> bool {
    match (usize::try_from(row), u32::try_from(col)) {
        (Ok(r), Ok(c)) if r < 7 && c < 5 => glyph[r] & (1 << (4 - c)) != 0,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_are_distinct_and_not_blank() {
        for (i, (a, ga)) in GLYPHS.iter().enumerate() {
            assert_ne!(*ga, [0; 7], "{a} is blank");
            for (b, gb) in &GLYPHS[i + 1..] {
                assert_ne!(ga, gb, "{a} and {b} look the same");
            }
        }
    }

    #[test]
    fn every_id_character_has_its_own_glyph() {
        for c in ('a'..='z').chain('0'..='9').chain("-_:.".chars()) {
            assert_eq!(char_of(&glyph(c)), Some(c));
        }
        assert_eq!(char_of(&glyph('E')), Some('e'));
        assert_eq!(char_of(&glyph('#')), Some(UNKNOWN));
        assert_eq!(char_of(&glyph('é')), Some(UNKNOWN));
        assert!(lit(&glyph('_'), 0, 6) && !lit(&glyph('_'), 0, 5));
        assert!(!lit(&glyph('_'), 5, 6) && !lit(&glyph('_'), 0, 7));
    }
}
