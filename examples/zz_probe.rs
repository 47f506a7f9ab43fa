use editblocks::engine::{apply_to_content, apply_edits, ApplyOptions, Matching};
use editblocks::host::MemoryHost;
use editblocks::tools::{apply_tool_calls, ToolCall, ToolOptions};
use editblocks::{EditBlock, Format};
use std::time::Instant;
fn block(path:&str, old: String, new: String) -> EditBlock {
    EditBlock { format: Format::SearchReplace, file_path: path.into(), anchor: String::new(), old_lines: old, new_lines: new, trailing_anchor: String::new(), raw_block: String::new(), line_number: 1 }
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let m: usize = args[2].parse().unwrap();
    let file: String = (0..n).map(|i| format!("    let value_{i} = compute({i});\n")).collect();
    let old: String = (n/2..n/2+m).map(|i| format!("  let value_{i} = compute({i});")).collect::<Vec<_>>().join("\n");
    let new: String = (n/2..n/2+m).map(|i| format!("  let value_{i} = compute({i}) + 1;")).collect::<Vec<_>>().join("\n");
    let t = Instant::now();
    let (_out, r) = apply_to_content(&block("f", old.clone(), new.clone()), &file, &ApplyOptions { matching: Matching::Tolerant, ..Default::default() });
    println!("engine tolerant {:?} {:?} {:?}", t.elapsed(), r.status, r.matched_by);
    if args.len() > 4 { return; }
    let t = Instant::now();
    let mut host = MemoryHost::with_files([("f", file.as_str())]);
    let r = apply_tool_calls(&[ToolCall::new("edit_file", serde_json::json!({"path":"f","old_string":old,"new_string":new}))], &mut host, &ToolOptions::default());
    println!("tools tolerant {:?} {}", t.elapsed(), r.ok);
    // sequential blocks
    let k: usize = args[3].parse().unwrap();
    let file: String = (0..k).map(|i| format!("line {i}\n")).collect();
    let blocks: Vec<EditBlock> = (0..k).map(|i| block("f", format!("line {i}"), format!("LINE {i}"))).collect();
    let mut host = MemoryHost::with_files([("f", file.as_str())]);
    let t = Instant::now();
    let r = apply_edits(&blocks, &mut host, &ApplyOptions::default());
    println!("sequential {k}: {:?} {:?}", t.elapsed(), r.results.last().map(|r| r.status));
    // mixed write-back
    let file: String = (0..200_000).map(|i| if i % 2 == 0 { format!("l{i}\r\n") } else { format!("l{i}\n") }).collect();
    let old: String = (0..60_000).map(|i| format!("l{}", 70_000 + i)).collect::<Vec<_>>().join("\n");
    let new: String = (0..60_000).map(|i| format!("n{}", 70_000 + i)).collect::<Vec<_>>().join("\n");
    let t = Instant::now();
    let (out, r) = apply_to_content(&block("f", old.clone(), new.clone()), &file, &ApplyOptions::default());
    println!("mixed write-back engine {:?} {:?} {}", t.elapsed(), r.status, out.len());
    let mut host = MemoryHost::with_files([("f", file.as_str())]);
    let t = Instant::now();
    let r = apply_tool_calls(&[ToolCall::new("edit_file", serde_json::json!({"path":"f","old_string":old,"new_string":new}))], &mut host, &ToolOptions::default());
    println!("mixed write-back tools {:?} {}", t.elapsed(), r.ok);
}
