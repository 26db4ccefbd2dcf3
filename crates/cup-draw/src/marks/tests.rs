//! Tests of [`draw`] and [`read_label`] on synthetic images.

use super::*;

/// A seeded pseudo-random sequence (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = u64::try_from(hi - lo).expect("hi > lo");
        lo + i64::try_from(self.next() % span).expect("small")
    }
}

fn image(w: u32, h: u32, px: [u8; 3]) -> Vec<u8> {
    px.repeat((w * h) as usize)
}

fn noise(w: u32, h: u32, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    (0..w * h * 3).map(|_| (rng.next() & 0xff) as u8).collect()
}

fn mark(id: &str, x: i64, y: i64, w: u64, h: u64) -> Mark {
    Mark {
        id: id.to_string(),
        rect: Rect::new(x, y, w, h),
    }
}

/// 150 small marks at seeded random places in 1920 × 1080.
fn crowd(seed: u64) -> Vec<Mark> {
    let mut rng = Rng(seed);
    (0..150)
        .map(|i| {
            let (w, h) = (rng.range(12, 120), rng.range(12, 40));
            let (x, y) = (rng.range(0, 1920 - w), rng.range(0, 1080 - h));
            mark(&format!("e{i}"), x, y, w as u64, h as u64)
        })
        .collect()
}

/// Draws on a copy of `rgb` and checks what every drawing must hold: each
/// mark reported once, labels inside the image and apart, each label reads
/// back its id, boxes are the clipped bounds.
fn draw_checked(rgb: &mut [u8], w: u32, h: u32, marks: &[Mark], scale: f64) -> Drawn {
    let mut canvas = Canvas {
        rgb,
        width: w,
        height: h,
    };
    let drawn = draw(&mut canvas, marks, scale);
    let image = Area::at(0, 0, i64::from(w), i64::from(h));
    let reported = drawn.placed.len() + drawn.unplaced.len() + drawn.outside.len();
    assert_eq!(reported, marks.len(), "every mark reported once");
    for (i, p) in drawn.placed.iter().enumerate() {
        let label = Area::of(&p.label);
        assert!(
            image.contains(&label),
            "{} label {:?} outside the image",
            p.id,
            p.label
        );
        for q in &drawn.placed[i + 1..] {
            assert!(
                !label.overlaps(&Area::of(&q.label)),
                "labels of {} and {} overlap: {:?} {:?}",
                p.id,
                q.id,
                p.label,
                q.label
            );
        }
        assert_eq!(
            read_label(&canvas, p.label).as_deref(),
            Some(p.id.as_str()),
            "{}",
            p.id
        );
        let m = marks.iter().find(|m| m.id == p.id).expect("mark");
        assert_eq!(p.bounds, Area::of(&m.rect).intersect(&image).rect());
        assert!(PALETTE.contains(&p.colour));
    }
    drawn
}

#[test]
fn an_empty_list_leaves_the_image_untouched() {
    let before = noise(64, 48, 1);
    let mut rgb = before.clone();
    let drawn = draw_checked(&mut rgb, 64, 48, &[], 1.0);
    assert_eq!(drawn, Drawn::default());
    assert_eq!(rgb, before);
}

#[test]
fn one_mark_gets_a_box_and_a_label_above_its_corner() {
    let (w, h) = (200u32, 120u32);
    let mut rgb = image(w, h, [255; 3]);
    let drawn = draw_checked(&mut rgb, w, h, &[mark("e12", 50, 60, 80, 30)], 1.0);
    let p = &drawn.placed[0];
    assert_eq!(p.label, Rect::new(50, 42, 38, 18));
    assert_eq!(p.bounds, Rect::new(50, 60, 80, 30));
    let at = |x: u32, y: u32| {
        let i = ((y * w + x) * 3) as usize;
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    // The box's stroke (2 pixels at scale 1) and the untouched inside.
    assert_eq!(at(129, 89), p.colour);
    assert_eq!(at(128, 88), p.colour);
    assert_eq!(at(127, 87), [255; 3]);
    assert_eq!(at(90, 75), [255; 3]);
    // Nothing outside the box and the label.
    assert_eq!(at(10, 10), [255; 3]);
}

#[test]
fn labels_never_overlap_in_a_crowd() {
    for seed in [7, 8, 9] {
        let marks = crowd(seed);
        let mut rgb = noise(1920, 1080, seed);
        let drawn = draw_checked(&mut rgb, 1920, 1080, &marks, 1.0);
        assert!(drawn.outside.is_empty());
        assert!(drawn.placed.len() >= 145, "placed {}", drawn.placed.len());
    }
}

#[test]
fn labels_never_overlap_in_a_crowd_at_scale_two() {
    let marks: Vec<Mark> = crowd(11)
        .into_iter()
        .map(|m| Mark {
            rect: Rect::new(m.rect.x * 2, m.rect.y * 2, m.rect.w * 2, m.rect.h * 2),
            ..m
        })
        .collect();
    let mut rgb = noise(3840, 2160, 11);
    let drawn = draw_checked(&mut rgb, 3840, 2160, &marks, 2.0);
    assert!(drawn.placed.len() >= 145, "placed {}", drawn.placed.len());
}

#[test]
fn labels_never_overlap_on_a_grid_of_touching_cells() {
    // 16 × 8 cells of 20 × 20 pixels, each smaller than its label.
    let marks: Vec<Mark> = (0..128)
        .map(|i| {
            mark(
                &format!("e{i}"),
                600 + (i % 16) * 20,
                400 + (i / 16) * 20,
                20,
                20,
            )
        })
        .collect();
    let mut rgb = image(1920, 1080, [240; 3]);
    let drawn = draw_checked(&mut rgb, 1920, 1080, &marks, 1.0);
    assert!(drawn.placed.len() >= 100, "placed {}", drawn.placed.len());
}

#[test]
fn a_full_image_grid_leaves_some_unplaced_but_never_overlaps() {
    // 20 × 15 touching cells cover all of 400 × 300: more labels than room.
    let marks: Vec<Mark> = (0..20 * 15)
        .map(|i| mark(&format!("e{i}"), (i % 20) * 20, (i / 20) * 20, 20, 20))
        .collect();
    let mut rgb = image(400, 300, [0; 3]);
    let drawn = draw_checked(&mut rgb, 400, 300, &marks, 1.0);
    assert!(!drawn.unplaced.is_empty());
    assert!(drawn.placed.len() > 100, "placed {}", drawn.placed.len());
}

#[test]
fn labels_read_on_white_black_and_noise() {
    let marks = vec![
        mark("e1", 40, 40, 60, 24),
        mark("a-b_c:d.9", 150, 40, 100, 24),
        mark("e1234", 40, 120, 20, 20),
    ];
    for (name, mut rgb) in [
        ("white", image(320, 200, [255; 3])),
        ("black", image(320, 200, [0; 3])),
        ("noise", noise(320, 200, 3)),
    ] {
        let drawn = draw_checked(&mut rgb, 320, 200, &marks, 1.0);
        assert_eq!(drawn.placed.len(), 3, "{name}");
    }
}

#[test]
fn every_id_character_reads_back() {
    let id = "abcdefghijklmnopqrstuvwxyz0123456789-_:.";
    let mut rgb = noise(800, 100, 5);
    let drawn = draw_checked(&mut rgb, 800, 100, &[mark(id, 10, 40, 600, 40)], 1.0);
    assert_eq!(drawn.placed.len(), 1);
}

#[test]
fn labels_survive_a_png_round_trip() {
    let (w, h) = (640u32, 360u32);
    let marks = crowd(3)
        .into_iter()
        .map(|m| Mark {
            rect: Rect::new(m.rect.x / 3, m.rect.y / 3, m.rect.w / 2, m.rect.h / 2),
            ..m
        })
        .take(40)
        .collect::<Vec<_>>();
    let mut rgb = noise(w, h, 4);
    let drawn = draw_checked(&mut rgb, w, h, &marks, 1.0);
    let mut png = Vec::new();
    let mut enc = png::Encoder::new(&mut png, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().expect("header");
    writer.write_image_data(&rgb).expect("data");
    writer.finish().expect("finish");
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("info");
    let mut back = vec![0; reader.output_buffer_size().expect("size")];
    reader.next_frame(&mut back).expect("frame");
    assert!(!drawn.placed.is_empty());
    for p in &drawn.placed {
        assert_eq!(
            read_label_rgb(&back, w, h, p.label).as_deref(),
            Some(p.id.as_str())
        );
    }
}

#[test]
fn marks_outside_the_image_are_reported() {
    let marks = vec![
        mark("left", -100, 10, 50, 20),
        mark("below", 10, 500, 50, 20),
        mark("empty", 10, 10, 0, 20),
        mark("touching", 200, 10, 20, 20),
        mark("in", 10, 40, 50, 20),
    ];
    let mut rgb = image(200, 100, [255; 3]);
    let drawn = draw_checked(&mut rgb, 200, 100, &marks, 1.0);
    assert_eq!(drawn.outside, ["left", "below", "empty", "touching"]);
    assert_eq!(drawn.placed.len(), 1);
}

#[test]
fn a_mark_partly_outside_gets_a_clipped_box() {
    let mut rgb = image(200, 100, [255; 3]);
    let marks = [mark("e1", -10, -10, 50, 40), mark("e2", 180, 80, 40, 40)];
    let drawn = draw_checked(&mut rgb, 200, 100, &marks, 1.0);
    assert_eq!(drawn.placed[0].bounds, Rect::new(0, 0, 40, 30));
    assert_eq!(drawn.placed[1].bounds, Rect::new(180, 80, 20, 20));
}

#[test]
fn scale_two_gives_larger_labels() {
    let marks = [mark("e12", 100, 100, 120, 60)];
    let mut one = image(400, 300, [255; 3]);
    let mut two = image(400, 300, [255; 3]);
    let a = draw_checked(&mut one, 400, 300, &marks, 1.0);
    let b = draw_checked(&mut two, 400, 300, &marks, 2.0);
    assert_eq!((a.placed[0].label.w, a.placed[0].label.h), (38, 18));
    assert_eq!((b.placed[0].label.w, b.placed[0].label.h), (76, 36));
    assert_eq!(label_size("e12", 2.0), (76, 36));
    assert_eq!(
        (glyph_factor(1.0), glyph_factor(1.5), glyph_factor(2.0)),
        (2, 3, 4)
    );
}

#[test]
fn no_room_means_unplaced() {
    // A label 18 pixels high cannot fit in a 16-pixel-high image.
    let mut rgb = image(200, 16, [255; 3]);
    let before = rgb.clone();
    let drawn = draw_checked(&mut rgb, 200, 16, &[mark("e1", 10, 2, 30, 10)], 1.0);
    assert_eq!(drawn.unplaced, ["e1"]);
    assert_eq!(rgb, before, "nothing is drawn for an unplaced mark");
}

#[test]
fn labels_keep_off_other_boxes_when_they_can() {
    // A toolbar of touching buttons with free space above and below:
    // every label finds a place that hides no other button.
    let marks: Vec<Mark> = (0..12)
        .map(|i| mark(&format!("b{i}"), 100 + i * 60, 200, 60, 30))
        .collect();
    let mut rgb = image(1000, 400, [255; 3]);
    let drawn = draw_checked(&mut rgb, 1000, 400, &marks, 1.0);
    assert_eq!(drawn.placed.len(), 12);
    for p in &drawn.placed {
        for m in &marks {
            assert!(
                !Area::of(&p.label).overlaps(&Area::of(&m.rect)),
                "{} hides {}",
                p.id,
                m.id
            );
        }
    }
}

#[test]
fn neighbours_get_different_colours() {
    let marks: Vec<Mark> = (0..12)
        .map(|i| mark(&format!("b{i}"), 100 + i * 60, 200, 60, 30))
        .collect();
    let mut rgb = image(1000, 400, [255; 3]);
    let drawn = draw_checked(&mut rgb, 1000, 400, &marks, 1.0);
    for w in drawn.placed.windows(2) {
        assert_ne!(w[0].colour, w[1].colour, "{} and {}", w[0].id, w[1].id);
    }
}

#[test]
fn drawing_is_deterministic() {
    let marks = crowd(21);
    let mut a = image(1920, 1080, [30; 3]);
    let mut b = a.clone();
    let da = draw(
        &mut Canvas {
            rgb: &mut a,
            width: 1920,
            height: 1080,
        },
        &marks,
        1.0,
    );
    let db = draw(
        &mut Canvas {
            rgb: &mut b,
            width: 1920,
            height: 1080,
        },
        &marks,
        1.0,
    );
    assert_eq!(da, db);
    assert!(a == b);
}

#[test]
fn odd_canvases_do_not_panic() {
    let marks = [mark("e1", 0, 0, 50, 50)];
    let mut short = vec![0u8; 100 * 3 * 30 + 7];
    let mut canvas = Canvas {
        rgb: &mut short,
        width: 100,
        height: 60,
    };
    let drawn = draw(&mut canvas, &marks, 1.0);
    assert_eq!(drawn.placed[0].bounds, Rect::new(0, 0, 50, 30));
    assert_eq!(
        read_label(&canvas, drawn.placed[0].label).as_deref(),
        Some("e1")
    );
    let mut none: Vec<u8> = Vec::new();
    let drawn = draw(
        &mut Canvas {
            rgb: &mut none,
            width: 0,
            height: 0,
        },
        &marks,
        1.0,
    );
    assert_eq!(drawn.outside, ["e1"]);
    let huge = [mark("e2", -5, -5, u64::MAX, u64::MAX)];
    let mut rgb = image(100, 60, [0; 3]);
    let drawn = draw_checked(&mut rgb, 100, 60, &huge, f64::NAN);
    assert_eq!(drawn.placed[0].bounds, Rect::new(0, 0, 100, 60));
    let canvas = Canvas {
        rgb: &mut rgb,
        width: 100,
        height: 60,
    };
    assert_eq!(read_label(&canvas, Rect::new(90, 50, 40, 18)), None);
    assert_eq!(read_label(&canvas, Rect::new(0, 0, 0, 0)), None);
}

#[test]
fn the_result_serializes() {
    let mut rgb = image(200, 100, [255; 3]);
    let drawn = draw_checked(&mut rgb, 200, 100, &[mark("e1", 10, 40, 50, 20)], 1.0);
    let json = serde_json::to_value(&drawn).expect("json");
    assert_eq!(json["placed"][0]["id"], "e1");
    assert_eq!(json["placed"][0]["label"]["h"], 18);
}
