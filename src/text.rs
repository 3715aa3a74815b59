//! Text for the terminal: paragraphs wrapped to a width, so every command's prose reads
//! the same; and text made safe for HTML pages.

/// `s` with `&`, `<`, `>` and `"` escaped for HTML text and attribute values.
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Wraps `text` (paragraphs separated by blank lines) at 90 columns, each line starting
/// with `indent`; ends with a newline.
pub fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    for (i, para) in text.split("\n\n").enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut line = String::new();
        for w in para.split_whitespace() {
            if !line.is_empty() && indent.len() + line.len() + 1 + w.len() > 90 {
                out.push_str(indent);
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(w);
        }
        if !line.is_empty() {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_stay_within_90_columns_and_paragraphs_stay_apart() {
        let text = format!("{}\n\nsecond", "word ".repeat(40));
        let out = wrap(&text, "  ");
        assert!(out.lines().all(|l| l.len() <= 90), "{out}");
        assert!(out.lines().all(|l| l.is_empty() || l.starts_with("  ")));
        assert!(out.ends_with("\n\n  second\n"), "{out:?}");
    }
}

/// `n` with thousands separated by commas: 124439808 -> "124,439,808".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod thousands_tests {
    #[test]
    fn groups_of_three() {
        assert_eq!(super::thousands(124_439_808), "124,439,808");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(1000), "1,000");
    }
}
