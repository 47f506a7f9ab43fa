//! Applying the patch formats: OpenAI's `apply_patch` (V4A, `*** Begin
//! Patch`) and unified diffs. The parser's readers
//! ([`crate::parser::parse_edits`]) turn every file operation into one
//! [`EditBlock`](crate::EditBlock) with its [`PatchOp`]; `apply` locates the
//! hunks with [`crate::locate`] and applies each patch as one transaction.
//!
//! A patch block keeps `old_lines` / `new_lines` meaningful for renderers:
//! they hold the old and new side of every hunk, joined in order. The exact
//! operation is in [`PatchOp`] (`operation`, `moveTo`, `oldPath`, `hunks`
//! across the JavaScript boundary).

pub(crate) mod apply;
mod doc;

pub use crate::block::patch_op::{Hunk, Operation, PatchOp};
pub(crate) use apply::update_body;
pub use apply::{apply_patch_edits, patch_paths};

/// The fixture harnesses' folder reading (`tests/all/fixture_support.rs`), for
/// the tests below.
#[cfg(all(test, feature = "full"))]
#[path = "../../tests/all/fixture_support.rs"]
mod fixture_support;

#[cfg(test)]
mod tests {
    use crate::block::EditBlock;

    /// Blocks parsed only to be applied are the blocks `parse_edits` gives
    /// with a patch block's `old_lines` / `new_lines` cut to their first
    /// line and no `raw_block` (applying reads none); applied to every
    /// patch fixture's files (with its options), both give the same result
    /// (file changes and all) and the same files, byte for byte.
    #[test]
    #[cfg(feature = "full")]
    fn blocks_to_apply_apply_as_the_full_blocks() {
        use super::fixture_support::read_tree;
        use crate::edits::apply_edits;
        use crate::engine::ApplyOptions;
        use crate::parser::{parse_edits, parse_edits_to_apply, ParseOptions};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/patch");
        let mut cases = 0;
        let mut dirs: Vec<_> = std::fs::read_dir(&root)
            .expect("the patch fixtures")
            .flatten()
            .map(|e| e.path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let Ok(reply) = std::fs::read_to_string(dir.join("reply.md")) else {
                continue;
            };
            let name = dir.display();
            let options: ApplyOptions = std::fs::read_to_string(dir.join("options.json"))
                .map(|t| serde_json::from_str(&t).expect("options.json"))
                .unwrap_or_default();
            let full = parse_edits(&reply, &ParseOptions::default());
            let to_apply = parse_edits_to_apply(&reply, &ParseOptions::default()).0;
            let first_line = |s: &str| s.split('\n').next().unwrap_or("").to_string();
            let cut: Vec<EditBlock> = full
                .iter()
                .map(|b| match b.patch {
                    Some(_) => EditBlock {
                        old_lines: first_line(&b.old_lines),
                        new_lines: first_line(&b.new_lines),
                        raw_block: String::new(),
                        ..b.clone()
                    },
                    None => b.clone(),
                })
                .collect();
            assert_eq!(to_apply, cut, "{name}");
            let before = read_tree(&dir.join("before"));
            let apply = |blocks: &[EditBlock]| {
                let mut host = crate::host::MemoryHost::new();
                host.files = before.clone();
                let result = apply_edits(blocks, &mut host, &options);
                (
                    serde_json::to_string(&result).expect("a result"),
                    host.files,
                )
            };
            assert_eq!(apply(&to_apply), apply(&full), "{name}");
            cases += 1;
        }
        assert!(cases > 100, "the patch fixtures were read ({cases})");
    }

    /// An update applied to a file's text directly ([`update_body`], what
    /// V4A tool calls and the live preview use) gives what the transaction
    /// gives for that one operation on a host holding only that file: the
    /// same text written, or the same refusal (kind, reason, line). Every
    /// in-place update of every patch fixture, on its file as `before` has it.
    #[test]
    #[cfg(feature = "full")]
    fn an_update_applied_to_text_is_the_transaction_on_one_file() {
        use super::fixture_support::read_tree;
        use super::{apply_patch_edits, update_body, Operation};
        use crate::engine::{ApplyOptions, Mode};
        use crate::parser::{parse_edits, ParseOptions};
        use crate::result::Status;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/patch");
        let (mut applied, mut refused) = (0, 0);
        for dir in std::fs::read_dir(&root)
            .expect("the patch fixtures")
            .flatten()
        {
            let dir = dir.path();
            let Ok(reply) = std::fs::read_to_string(dir.join("reply.md")) else {
                continue;
            };
            let before = read_tree(&dir.join("before"));
            for block in parse_edits(&reply, &ParseOptions::default()) {
                let Some(op) = block.patch.as_deref() else {
                    continue;
                };
                let Ok(path) = crate::path::confine(&block.file_path, &[]) else {
                    continue;
                };
                let content = before.get(&path).and_then(|b| std::str::from_utf8(b).ok());
                let (Operation::Update, None, Some(content)) = (op.operation, &op.move_to, content)
                else {
                    continue;
                };
                let name = format!("{}: {}", dir.display(), block.file_path);
                let direct = update_body(block.format, &block.file_path, &path, op, content);
                let mut host = crate::host::MemoryHost::with_files([(path.as_str(), content)]);
                let options = ApplyOptions {
                    mode: Mode::Atomic,
                    ..ApplyOptions::default()
                };
                let r = apply_patch_edits(std::slice::from_ref(&block), &mut host, &options);
                let first = &r.results[0];
                match direct {
                    Ok(updated) => {
                        assert_eq!(first.status, Status::Applied, "{name}");
                        assert_eq!(host.text(&path), Some(updated.text), "{name}");
                        assert_eq!(first.reason, updated.note, "{name}");
                        assert_eq!(first.estimated_line, updated.line, "{name}");
                        applied += 1;
                    }
                    Err(f) => {
                        assert_ne!(first.status, Status::Applied, "{name}");
                        assert_eq!(first.error_kind, Some(f.kind), "{name}");
                        assert_eq!(first.reason.as_deref(), Some(f.reason.as_str()), "{name}");
                        assert_eq!(first.estimated_line, f.line, "{name}");
                        refused += 1;
                    }
                }
            }
        }
        assert!(
            applied > 100 && refused > 15,
            "in-place updates read: {applied} applied, {refused} refused"
        );
    }
}
