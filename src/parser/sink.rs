//! Where the grammar reports. The state machine ([`Grammar`](super::Grammar))
//! knows the reply's structure and nothing of how it is delivered: it calls a
//! [`Sink`] for each block start, content line, new section, completed block
//! and discard. Three sinks live here: [`EventSink`] (the
//! [`StreamEvent`]s of [`EditStream`](super::EditStream)), [`BlockSink`]
//! ([`parse_edits`](super::parse_edits)) and [`SpanSink`]
//! ([`parse_spans`](super::parse_spans)). A binding adds its own (the
//! JavaScript binding's numeric records live in `bindings/wasm/src/records.rs`).

use super::events::{assumed_names, BlockSpans, Section, StreamEvent};
use crate::block::{EditBlock, Format};

/// Where a block's path came from, for a sink that points into the reply.
#[derive(Debug, Clone, Copy)]
pub enum PathAt<'a, M> {
    /// The path is `line[range.0..range.1]`; the line starts at byte
    /// `offset` of the reply (read with CRLF as LF) and at the sink's `mark`.
    Line {
        line: &'a str,
        range: (usize, usize),
        offset: usize,
        mark: M,
    },
    /// The previous block's path, carried over.
    Previous,
    /// Not text of the reply as is (a patch operation's cleaned path that
    /// is not in the line just read).
    Elsewhere,
}

/// A block that was read to its end marker and is complete.
#[derive(Debug, Clone, Copy)]
pub struct CompleteBlock<'a, M> {
    pub format: Format,
    pub file_path: &'a str,
    /// The block as written (LF-normalised), from its path line to its end
    /// marker, without a final newline.
    pub raw: &'a str,
    /// Byte offset of `raw` in the reply, and the sink's mark for it.
    pub raw_offset: usize,
    pub raw_mark: M,
    /// Byte range of the path in the reply (the previous block's, when
    /// carried over).
    pub path_span: (usize, usize),
    /// Byte ranges inside `raw` of the anchor, old, new and trailing anchor.
    pub parts: [(usize, usize); 4],
    pub line_number: u32,
    /// [`super::ASSUMED`] bits.
    pub assumed: u32,
    pub line_hint: Option<u32>,
}

impl<M> CompleteBlock<'_, M> {
    /// The block as an [`EditBlock`] (copies its texts).
    pub fn to_edit_block(&self) -> EditBlock {
        let get = |(s, e): (usize, usize)| self.raw.get(s..e).unwrap_or("").to_string();
        EditBlock {
            format: self.format,
            file_path: self.file_path.to_string(),
            anchor: get(self.parts[0]),
            old_lines: get(self.parts[1]),
            new_lines: get(self.parts[2]),
            trailing_anchor: get(self.parts[3]),
            raw_block: self.raw.to_string(),
            line_number: self.line_number,
            assumed: assumed_names(self.assumed),
            line_hint: self.line_hint,
            patch: None,
        }
    }

    /// The block as byte ranges of the reply.
    pub fn to_spans(&self) -> BlockSpans {
        let base = self.raw_offset;
        let g = |(s, e): (usize, usize)| (base + s, base + e);
        BlockSpans {
            format: self.format,
            line_number: self.line_number,
            path: self.path_span,
            anchor: g(self.parts[0]),
            old: g(self.parts[1]),
            new: g(self.parts[2]),
            trailing_anchor: g(self.parts[3]),
            raw: (base, base + self.raw.len()),
            assumed: self.assumed,
            line_hint: self.line_hint.unwrap_or(0),
        }
    }
}

/// What the grammar calls as it reads. Every method but [`Sink::complete`],
/// [`Sink::patch_complete`] and [`Sink::line`] is called only when
/// [`Sink::events`] is true.
pub trait Sink {
    /// Whether block starts, updates and discards are wanted (a one-shot
    /// parse wants only complete blocks). Asked once, when the grammar is
    /// made. By default not: the defaults below ignore every event, for a
    /// sink that wants complete blocks only.
    fn events(&self) -> bool {
        false
    }
    /// Whether [`Sink::discarded`] is wanted: with the events, or alone (a
    /// reply parsed to be applied reports each block it drops). Asked once,
    /// when the grammar is made.
    fn discards(&self) -> bool {
        self.events()
    }
    /// Whether the sink marks lines ([`Sink::line`]). Asked once, when the
    /// grammar is made; when not, `line` is never called and every mark is
    /// 0 (a call a line saved). By default it does.
    fn marks(&self) -> bool {
        true
    }
    /// A line of the reply is read (without its line end); returns the mark
    /// of its start: what the sink wants remembered with a line that may be
    /// pointed at later (a path line, a block's first line), e.g. its offset
    /// in the sink's own units; 0 when nothing. Called for every line, in
    /// order, before anything it causes, when [`Sink::marks`].
    fn line(&mut self, _line: &str) -> Mark {
        0
    }
    /// A start marker was read after a usable path.
    fn block_start(
        &mut self,
        _format: Option<Format>,
        _line_number: u32,
        _file_path: &str,
        _at: PathAt<'_, Mark>,
    ) {
    }
    /// `line`, the current line, is content of `section`.
    fn content(&mut self, _format: Option<Format>, _section: Section, _line: &str) {}
    /// A new section begins (its marker is the current line).
    fn section(&mut self, _format: Option<Format>, _section: Section) {}
    /// Lines read earlier are content of `section` after all (a block
    /// restarted at a start marker it held).
    fn replayed(&mut self, _format: Option<Format>, _section: Section, _lines: Vec<String>) {}
    /// A text block is complete; `index` is its place among all blocks.
    fn complete(&mut self, index: usize, block: CompleteBlock<'_, Mark>);
    /// Body lines of the patch operation being read; `current` is the line
    /// just read.
    fn patch_update(&mut self, _format: Format, _lines: Vec<String>, _current: &str) {}
    /// `line`, the line just read, is a body line of the patch operation
    /// being read, as written.
    fn patch_line(&mut self, _format: Format, _line: &str) {}
    /// A patch operation is complete. `raw_at`: the byte offset and mark of
    /// the reply line its `raw_block` starts at (its header line), when known;
    /// the raw block is the reply's text from there only when it reads the
    /// same (a patch grammar may have tidied a line).
    fn patch_complete(&mut self, index: usize, block: EditBlock, raw_at: Option<(usize, Mark)>);
    /// A block was dropped, with the sentence saying why.
    fn discarded(&mut self, _file_path: Option<String>, _line_number: u32, _reason: String) {}
}

/// What a sink remembers with a line (see [`Sink::line`]).
pub type Mark = usize;

/// A [`Sink`] the grammar can hand back as its own type: the grammar holds
/// its sink as `Box<dyn AnySink>`, so that it is compiled once for all sinks.
pub trait AnySink: Sink {
    fn as_any(&self) -> &dyn std::any::Any;
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

impl<S: Sink + 'static> AnySink for S {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// Every [`StreamEvent`], consecutive lines of one section merged.
#[derive(Debug, Default)]
pub struct EventSink {
    pub events: Vec<StreamEvent>,
}

impl EventSink {
    fn push_lines(&mut self, format: Option<Format>, section: Section, lines: Vec<String>) {
        if let Some(StreamEvent::BlockUpdate {
            section: last,
            lines: have,
            ..
        }) = self.events.last_mut()
        {
            if *last == section {
                have.extend(lines);
                return;
            }
        }
        self.events.push(StreamEvent::BlockUpdate {
            format,
            section,
            lines,
        });
    }
}

impl Sink for EventSink {
    fn events(&self) -> bool {
        true
    }
    fn marks(&self) -> bool {
        false
    }
    fn block_start(
        &mut self,
        format: Option<Format>,
        line_number: u32,
        path: &str,
        _: PathAt<Mark>,
    ) {
        self.events.push(StreamEvent::BlockStart {
            file_path: path.to_string(),
            format,
            line_number,
        });
    }
    fn content(&mut self, format: Option<Format>, section: Section, line: &str) {
        self.push_lines(format, section, vec![line.to_string()]);
    }
    fn section(&mut self, format: Option<Format>, section: Section) {
        self.events.push(StreamEvent::BlockUpdate {
            format,
            section,
            lines: Vec::new(),
        });
    }
    fn replayed(&mut self, format: Option<Format>, section: Section, lines: Vec<String>) {
        self.events.push(StreamEvent::BlockUpdate {
            format,
            section,
            lines,
        });
    }
    fn complete(&mut self, index: usize, block: CompleteBlock<'_, Mark>) {
        self.events.push(StreamEvent::BlockComplete {
            index,
            block: block.to_edit_block(),
        });
    }
    fn patch_update(&mut self, format: Format, lines: Vec<String>, _: &str) {
        self.push_lines(Some(format), Section::Patch, lines);
    }
    fn patch_line(&mut self, format: Format, line: &str) {
        self.push_lines(Some(format), Section::Patch, vec![line.to_string()]);
    }
    fn patch_complete(&mut self, index: usize, block: EditBlock, _: Option<(usize, Mark)>) {
        self.events
            .push(StreamEvent::BlockComplete { index, block });
    }
    fn discarded(&mut self, file_path: Option<String>, line_number: u32, reason: String) {
        self.events.push(StreamEvent::BlockDiscarded {
            file_path,
            line_number,
            reason,
        });
    }
}

/// Complete blocks only, as [`EditBlock`]s.
#[derive(Debug, Default)]
pub struct BlockSink {
    pub blocks: Vec<EditBlock>,
}

impl Sink for BlockSink {
    fn marks(&self) -> bool {
        false
    }
    fn complete(&mut self, _: usize, block: CompleteBlock<'_, Mark>) {
        self.blocks.push(block.to_edit_block());
    }
    fn patch_complete(&mut self, _: usize, block: EditBlock, _: Option<(usize, Mark)>) {
        self.blocks.push(block);
    }
}

/// Complete text blocks as byte ranges of the reply (no text copied), and
/// the patch blocks, which are not ranges of the reply, with their place
/// among all blocks.
#[derive(Debug, Default)]
pub struct SpanSink {
    pub spans: Vec<BlockSpans>,
    pub patches: Vec<(usize, EditBlock)>,
    /// For each of `patches`, where its header line starts in the reply.
    pub patch_offsets: Vec<Option<usize>>,
    /// Whether the blocks dropped are kept in `discarded`.
    pub keep_discards: bool,
    pub discarded: Vec<crate::result::DiscardedBlock>,
}

impl Sink for SpanSink {
    fn marks(&self) -> bool {
        false
    }
    fn discards(&self) -> bool {
        self.keep_discards
    }
    fn discarded(&mut self, path: Option<String>, line_number: u32, reason: String) {
        self.discarded.push(crate::result::DiscardedBlock {
            line_number,
            path,
            reason,
        });
    }
    fn complete(&mut self, _: usize, block: CompleteBlock<'_, Mark>) {
        self.spans.push(block.to_spans());
    }
    fn patch_complete(&mut self, index: usize, block: EditBlock, raw_at: Option<(usize, Mark)>) {
        self.patches.push((index, block));
        self.patch_offsets.push(raw_at.map(|(offset, _)| offset));
    }
}
