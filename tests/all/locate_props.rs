//! The one locate module: the line index gives the same
//! answers as a scan, and tolerant re-indentation takes each changed line's
//! offset from its own corresponding old line.

use editblocks::locate::find_unique_tolerant as find_unique;
use editblocks::locate::{locate, locate_hashed, LineIndex, Prefer, PATCH_PASSES};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Files of few distinct lines (many repeats), needles cut from them or
    /// made up: the indexed search, the hashed one and the scan agree.
    #[test]
    fn the_index_gives_the_scans_answers(
        file in prop::collection::vec(prop_oneof![Just("a"), Just("b"), Just("  a"), Just(""), Just("c ")], 0..40),
        cut in (0usize..40, 1usize..5),
        made_up in prop::collection::vec(prop_oneof![Just("a"), Just("b"), Just("z")], 1..4),
        from in 0usize..42,
        prefer in 0usize..4,
    ) {
        let prefer = match prefer { 0 => Prefer::Nothing, 1 => Prefer::End, 2 => Prefer::Line(from / 2), _ => Prefer::Before(from + 3) };
        let (at, len) = cut;
        let cut_needle: Vec<&str> = file.iter().skip(at).take(len).copied().collect();
        let indexed = LineIndex::new(&file);
        let hashed = LineIndex::hashes(&file);
        for needle in [cut_needle, made_up.clone()] {
            let want = locate(&file, &needle, &PATCH_PASSES, from, prefer);
            prop_assert_eq!(&locate_hashed(&file, Some(&indexed), &needle, &PATCH_PASSES, from, prefer), &want);
            prop_assert_eq!(&locate_hashed(&file, Some(&hashed), &needle, &PATCH_PASSES, from, prefer), &want);
        }
    }

    /// A region whose lines the model indented wrongly, each by its own
    /// amount; some lines changed. Every line of the result has the file's
    /// indentation of the old line it corresponds to.
    #[test]
    fn each_changed_line_takes_its_own_old_lines_offset(
        region in prop::collection::vec((0usize..4, 0usize..4, any::<bool>()), 2..8),
    ) {
        // (file level, how many levels the model left out, changed?)
        let pad = |n: usize| "    ".repeat(n);
        let mut file = String::from("fn outer() {\n");
        let (mut old, mut new, mut want) = (Vec::new(), Vec::new(), Vec::new());
        for (i, &(level, off, changed)) in region.iter().enumerate() {
            // The first line is written at its own depth (the pass repairs
            // only when old and new agree on the first line's indentation).
            let written = if i == 0 { level } else { level.saturating_sub(off) };
            let text = format!("line_{i}({level});");
            file.push_str(&format!("{}{text}\n", pad(level)));
            old.push(format!("{}{text}", pad(written)));
            let new_text = if changed { format!("changed_{i}({level});") } else { text.clone() };
            new.push(format!("{}{new_text}", pad(written)));
            want.push(format!("{}{new_text}", pad(level)));
        }
        file.push_str("}\n");
        let m = find_unique(&file, &old.join("\n"), &new.join("\n"));
        prop_assert!(m.is_ok(), "{:?}", m);
        let m = m.unwrap();
        let out = format!("{}{}{}", &file[..m.start], m.replacement, &file[m.end..]);
        let expected = format!("fn outer() {{\n{}\n}}\n", want.join("\n"));
        prop_assert_eq!(out, expected);
    }
}
