//! Tolerant re-indentation: a whole file indented by k levels, and an edit
//! written for the file at level 0, applies as that edit at level k. Each
//! new line takes the offset of the old line it replaces; inserted lines
//! take their neighbour's.

use editblocks::engine::{apply_to_content, ApplyOptions, Matching};
use editblocks::{EditBlock, Format, Status};
use proptest::prelude::*;

/// A line at `level` (4 spaces each), unique through `id`; `None` is blank.
fn render(lines: &[Option<(usize, String)>], k: usize) -> String {
    lines
        .iter()
        .map(|l| match l {
            Some((level, text)) => format!("{}{}", "    ".repeat(level + k), text),
            None => String::new(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

type Line = Option<(usize, String)>;

fn file() -> impl Strategy<Value = Vec<Line>> {
    prop::collection::vec(
        prop_oneof![5 => (0..4usize).prop_map(Some), 1 => Just(None)],
        3..14,
    )
    .prop_map(|levels| {
        // The first line is never blank, so every file has a line to edit.
        levels
            .into_iter()
            .enumerate()
            .map(|(i, l)| {
                l.or((i == 0).then_some(0))
                    .map(|level| (level, format!("line_{i} = {i}")))
            })
            .collect()
    })
}

/// An edit of `file`: a range whose first line is non-blank and kept, and
/// new lines made by replacing, inserting (at any level) and deleting.
fn case() -> impl Strategy<Value = (Vec<Line>, usize, usize, Vec<Line>, usize)> {
    file().prop_flat_map(|f| {
        let firsts: Vec<usize> = (0..f.len()).filter(|&i| f[i].is_some()).collect();
        let n = f.len();
        (
            Just(f),
            prop::sample::select(firsts),
            1..4usize,
            prop::collection::vec((0..4u8, 0..4usize), 0..5),
            1..3usize,
        )
            .prop_map(move |(f, start, len, ops, k)| {
                let end = (start + len).min(n).max(start + 1);
                let old: Vec<Line> = f[start..end].to_vec();
                let mut new = old.clone();
                for (i, (op, level)) in ops.into_iter().enumerate() {
                    let at = 1 + (i % new.len().max(1)).min(new.len().saturating_sub(1));
                    let text = format!("added_{i}()");
                    match op {
                        0 if at < new.len() && new[at].is_some() => new[at] = Some((level, text)),
                        1 if at < new.len() => {
                            new.remove(at);
                        }
                        _ => new.insert(at.min(new.len()), Some((level, text))),
                    }
                }
                (f, start, end, new, k)
            })
    })
}

fn block(old: &str, new: &str) -> EditBlock {
    EditBlock::new(Format::SearchReplace, "f.py", old, new)
}

proptest! {
    #![proptest_config(crate::prop_support::config(300))]

    #[test]
    fn an_edit_written_at_level_0_applies_at_level_k((f, start, end, new, k) in case()) {
        let old = f[start..end].to_vec();
        prop_assume!(render(&old, 0) != render(&new, 0));
        let mut expected0 = f[..start].to_vec();
        expected0.extend(new.iter().cloned());
        expected0.extend(f[end..].iter().cloned());
        let opts = ApplyOptions { matching: Matching::Tolerant, ..Default::default() };
        let b = block(&render(&old, 0), &render(&new, 0));
        let (content, result) = apply_to_content(&b, &(render(&f, k) + "\n"), &opts);
        prop_assert_eq!(result.status, Status::Applied, "{:?}", result.reason);
        prop_assert_eq!(content, render(&expected0, k) + "\n");
    }
}

#[test]
fn a_changed_line_keeps_the_depth_of_the_line_it_replaces() {
    let file = "class A:\n    def f(self):\n        return 1\n";
    let b = block("def f(self):\nreturn 1", "def f(self):\nreturn 2");
    let opts = ApplyOptions {
        matching: Matching::Tolerant,
        ..Default::default()
    };
    let (content, result) = apply_to_content(&b, file, &opts);
    assert_eq!(result.status, Status::Applied, "{:?}", result.reason);
    assert_eq!(content, "class A:\n    def f(self):\n        return 2\n");
}
