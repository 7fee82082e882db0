//! The `--fnvar-targets` and `--fnvar-architectures` CSV files read into
//! each module's constraints, with spirv-link's checks in its order and its
//! messages word for word.

use super::FnVarOptions;

/// One module's constraints: its architecture rows (category, family,
/// opcode, architecture) and its target rows (target, features), in file
/// order.
#[derive(Debug, Default)]
pub(super) struct Constraints {
    pub architectures: Vec<[u32; 4]>,
    pub targets: Vec<(u32, Vec<u32>)>,
}

const TARGET_COLUMNS: &[&str] = &["module", "target", "features"];
const ARCHITECTURE_COLUMNS: &[&str] = &["module", "category", "family", "op", "architecture"];

/// Splits the CSV text into rows, as the peer reads it: lines split at
/// `\n` with empty lines skipped, values split at `,` (a trailing comma
/// makes an empty last value), the first line naming the columns, which
/// must be `required` in that order. Rows of the wrong length are rejected
/// as they come, before the column names are checked.
fn parse(text: &str, required: &[&str]) -> Result<Vec<Vec<String>>, String> {
    let mut columns: Option<Vec<&str>> = None;
    let mut rows = Vec::new();
    for line in text.split('\n').filter(|l| !l.is_empty()) {
        let values: Vec<&str> = line.split(',').collect();
        match &columns {
            None => columns = Some(values),
            Some(c) if c.len() != values.len() => {
                return Err(format!("Number of values does not match the number of columns. Offending line:\n{line}"))
            }
            Some(_) => rows.push(values.iter().map(|v| v.to_string()).collect()),
        }
    }
    let columns = columns.unwrap_or_default();
    if columns.len() != required.len() {
        return Err(format!("Invalid number of CSV columns: {}, expected {}.", columns.len(), required.len()));
    }
    for (i, (got, want)) in columns.iter().zip(required).enumerate() {
        if got != want {
            return Err(format!("Invalid name of column {}. Expected '{want}', got '{got}'.", i + 1));
        }
    }
    Ok(rows)
}

/// A value of the targets registry: decimal digits only (leading zeros
/// allowed), fitting 32 bits.
fn number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The '/'-separated pieces of a features value as the peer splits them:
/// nothing for an empty value, and no empty piece after a final '/'.
fn features(text: &str) -> Vec<&str> {
    let mut pieces: Vec<&str> = text.split('/').collect();
    if pieces.last() == Some(&"") {
        pieces.pop();
    }
    pieces
}

/// Reads both CSV files into one `Constraints` per input (in input order),
/// after checking every row names an input.
pub(super) fn read(options: &FnVarOptions, count: usize) -> Result<Vec<Constraints>, String> {
    let targets =
        if options.targets_csv.is_empty() { Vec::new() } else { parse(&options.targets_csv, TARGET_COLUMNS)? };
    let architectures = if options.architectures_csv.is_empty() {
        Vec::new()
    } else {
        parse(&options.architectures_csv, ARCHITECTURE_COLUMNS)?
    };
    let name = |i: usize| options.names.get(i).map_or("", String::as_str);
    let known = |module: &str| (0..count).any(|i| name(i) == module);
    for (rows, file) in [(&targets, "targets"), (&architectures, "architectures")] {
        if let Some(row) = rows.iter().find(|r| !known(&r[0])) {
            return Err(format!("Module '{}' found in {file} CSV not passed to the CLI.", row[0]));
        }
    }
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let mut c = Constraints::default();
        for row in architectures.iter().filter(|r| r[0] == name(i)) {
            let mut values = [0u32; 4];
            let what = ["architecture category", "architecture family", "architecture op", "architecture"];
            for (k, v) in values.iter_mut().enumerate() {
                *v = number(&row[k + 1]).ok_or_else(|| format!("Error converting {} to {}.", row[k + 1], what[k]))?;
            }
            c.architectures.push(values);
        }
        for row in targets.iter().filter(|r| r[0] == name(i)) {
            let target = number(&row[1]).ok_or_else(|| format!("Error converting {} to target.", row[1]))?;
            let mut feats = Vec::new();
            for f in features(&row[2]) {
                feats.push(number(f).ok_or_else(|| format!("Error converting {f} in {} to target feature.", row[2]))?);
            }
            c.targets.push((target, feats));
        }
        out.push(c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_as_the_peer_splits_them() {
        let rows = parse("module,target,features\n\na.spv,7,\n", TARGET_COLUMNS).unwrap();
        assert_eq!(rows, vec![vec!["a.spv".to_string(), "7".into(), "".into()]]);
        assert_eq!(features(""), Vec::<&str>::new());
        assert_eq!(features("9/0010/"), vec!["9", "0010"]);
        assert_eq!(number("0010"), Some(10));
        assert_eq!(number("4294967296"), None);
        assert_eq!(number("+4"), None);
        assert!(parse("module,target\n", TARGET_COLUMNS).unwrap_err().starts_with("Invalid number of CSV columns: 2"));
        assert!(parse("", TARGET_COLUMNS).is_err());
    }
}
