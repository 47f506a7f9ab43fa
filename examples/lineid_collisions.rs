//! Measures how often two different lines of one real source file share a
//! line ID, for several widths: exactly the case in which a stale hashline
//! anchor would go unnoticed.
//!
//! `cargo run --release --example lineid_collisions [DIR...]`
//!
//! Without arguments it reads the Rust sources under `~/.cargo/registry/src`
//! and the JavaScript/TypeScript sources under `node_modules` (of the
//! current folder, or `/work/main/node_modules`). Two figures per width:
//!
//! * all pairs: every pair of distinct lines (trailing whitespace ignored,
//!   as IDs ignore it) within one file;
//! * shifted pairs: pairs at most 10 lines apart, the lines an anchor lands
//!   on when lines were inserted or deleted above it since the read.
//!
//! Each is printed next to what a perfectly uniform hash would give (1/32^w).

use editblocks::hashline::{line_hash, render_id};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

const WIDTHS: [usize; 5] = [2, 3, 4, 5, 6];
const SHIFT: usize = 10;

#[derive(Default, Clone)]
struct Tally {
    files: u64,
    lines: u64,
    pairs: u128,
    colliding: [u128; WIDTHS.len()],
    files_with_collision: [u64; WIDTHS.len()],
    near_pairs: u128,
    near_colliding: [u128; WIDTHS.len()],
}

fn walk(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, exts, out);
        } else if kind.is_file() {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if exts.iter().any(|e| name.ends_with(e)) {
                out.push(path);
            }
        }
    }
}

fn measure(files: &[PathBuf]) -> Tally {
    let mut t = Tally::default();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        t.files += 1;
        t.lines += lines.len() as u64;
        let hashes: Vec<u64> = lines.iter().map(|l| line_hash(l)).collect();
        let distinct: HashSet<&str> = lines.iter().copied().collect();
        let n = distinct.len() as u128;
        t.pairs += n * n.saturating_sub(1) / 2;
        for (w, &width) in WIDTHS.iter().enumerate() {
            let mut buckets: HashMap<String, u128> = HashMap::new();
            for line in &distinct {
                *buckets
                    .entry(render_id(line_hash(line), width))
                    .or_default() += 1;
            }
            let c: u128 = buckets.values().map(|&k| k * k.saturating_sub(1) / 2).sum();
            t.colliding[w] += c;
            if c > 0 {
                t.files_with_collision[w] += 1;
            }
        }
        for i in 0..lines.len() {
            for j in i + 1..lines.len().min(i + 1 + SHIFT) {
                if lines[i] == lines[j] {
                    continue;
                }
                t.near_pairs += 1;
                for (w, &width) in WIDTHS.iter().enumerate() {
                    let bits = 5 * width as u32;
                    if hashes[i] >> (64 - bits) == hashes[j] >> (64 - bits) {
                        t.near_colliding[w] += 1;
                    }
                }
            }
        }
    }
    t
}

fn print(name: &str, t: &Tally) {
    println!(
        "\n### {name}: {} files, {} lines, {} pairs of distinct lines within a file\n",
        t.files, t.lines, t.pairs
    );
    println!("| width | IDs | colliding pairs | share of pairs | uniform 1/32^w | files with a collision | shifted pairs (≤{SHIFT} apart) colliding | share |");
    println!("|---|---|---|---|---|---|---|---|");
    for (w, &width) in WIDTHS.iter().enumerate() {
        let ids = 32f64.powi(width as i32);
        let share = t.colliding[w] as f64 / (t.pairs.max(1)) as f64;
        let near = t.near_colliding[w] as f64 / (t.near_pairs.max(1)) as f64;
        println!(
            "| {width} | {ids:.0} | {} | {share:.3e} | {:.3e} | {:.1}% | {} of {} | {near:.3e} |",
            t.colliding[w],
            1.0 / ids,
            100.0 * t.files_with_collision[w] as f64 / t.files.max(1) as f64,
            t.near_colliding[w],
            t.near_pairs,
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut corpora: Vec<(String, Vec<PathBuf>)> = Vec::new();
    if args.is_empty() {
        let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
        let mut rust = Vec::new();
        walk(
            &Path::new(&home).join(".cargo/registry/src"),
            &[".rs"],
            &mut rust,
        );
        let node_root = if Path::new("node_modules").is_dir() {
            PathBuf::from("node_modules")
        } else {
            PathBuf::from("/work/main/node_modules")
        };
        let mut node = Vec::new();
        walk(
            &node_root,
            &[".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"],
            &mut node,
        );
        corpora.push(("Rust (~/.cargo/registry/src)".into(), rust));
        corpora.push((format!("JS/TS ({})", node_root.display()), node));
    } else {
        for dir in args {
            let mut files = Vec::new();
            walk(
                Path::new(&dir),
                &[
                    ".rs", ".js", ".mjs", ".cjs", ".ts", ".py", ".go", ".c", ".h",
                ],
                &mut files,
            );
            corpora.push((dir, files));
        }
    }
    let mut total = Tally::default();
    for (name, files) in &corpora {
        let t = measure(files);
        print(name, &t);
        total.files += t.files;
        total.lines += t.lines;
        total.pairs += t.pairs;
        total.near_pairs += t.near_pairs;
        for w in 0..WIDTHS.len() {
            total.colliding[w] += t.colliding[w];
            total.files_with_collision[w] += t.files_with_collision[w];
            total.near_colliding[w] += t.near_colliding[w];
        }
    }
    if corpora.len() > 1 {
        print("All", &total);
    }
}
