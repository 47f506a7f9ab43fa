//! Shell commands a model suggests for what edit blocks cannot do
//! (delete, rename, make folders): `git rm`, `git mv`, `mkdir -p`, `rm -rf`
//! inside backticks.

const COMMANDS: [&str; 4] = ["git rm ", "git mv ", "mkdir -p ", "rm -rf "];

/// Every suggested command in `text`, in order of appearance, without the
/// backticks. A command must fill a whole inline code span.
pub fn detect_shell_suggestions(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    // Backticks found eight bytes at a time (this scans every reply
    // `applyEdits` gets, most of it patch text without a backtick).
    let tick = |s: &str| crate::text::find_byte(s.as_bytes(), b'`');
    while let Some(open) = tick(rest) {
        let after = &rest[open + 1..];
        let Some(close) = tick(after) else { break };
        let span = &after[..close];
        let is_command = !span.contains('\n')
            && COMMANDS.iter().any(|c| {
                span.strip_prefix(c)
                    .is_some_and(|args| !args.trim().is_empty())
            });
        if is_command {
            found.push(span.to_string());
            rest = &after[close + 1..];
        } else {
            // The closing backtick may open the next span: continue from it.
            rest = &after[close..];
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_commands_in_backticks() {
        let text = "Run `git rm old.py` then `git mv a.py b.py`.\nAlso `mkdir -p src/x` and `rm -rf build`, not `ls`.";
        assert_eq!(
            detect_shell_suggestions(text),
            [
                "git rm old.py",
                "git mv a.py b.py",
                "mkdir -p src/x",
                "rm -rf build"
            ]
        );
    }

    #[test]
    fn ignores_bare_commands_and_empty_arguments() {
        assert!(detect_shell_suggestions("git rm x.py and `git rm ` and ``").is_empty());
        assert_eq!(detect_shell_suggestions("`a` `git rm x`"), ["git rm x"]);
    }
}
