//! No import cycles between the modules of any crate of the workspace
//! (issue 15: data flows one way, so each module can be read knowing only
//! the modules it names).
//!
//! The scan reads the source tree of each target of each workspace member
//! (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, following `mod`
//! declarations) with std only, builds a graph of modules and reports every
//! strongly connected component of more than one module, with the edges
//! inside it and the first place each comes from.
//!
//! There is an edge from module `M` (a file module or an inline
//! `mod name { .. }` block) to module `T` when `M`'s source holds a path
//! naming `T` or an item inside it (`T` is the deepest module on the path:
//! `crate::module::dominators::postorder` names `module::dominators`):
//! - in a `use` item, grouped imports expanded (`use crate::{a, b::{self,
//!   c}}` names `a`, `b` and `b::c`) and `as` renames followed, or anywhere
//!   in the code (`super::images::check(..)`, `crate::TargetEnv`, and
//!   `$crate::..` in a macro defined in `M`);
//! - starting with `crate`, `self`, `super` (repeated or not), or with a
//!   name `M` binds with `use` (`use super::images;` then `images::Context`)
//!   or sees through a glob import (`use super::*;` then `images::check`);
//!
//! unless `T` is `M`, one of its ancestors or one of its descendants
//! (parent/child nesting is not a cycle). Not counted: comments (doc links
//! included) and string literals, paths into other crates, and modules
//! under an exact `#[cfg(test)]` (inline `mod tests { .. }` blocks and
//! `mod x;` files), which are left out entirely. Names a module sees without
//! a `use` (its own items, its child modules) lead only to itself or its
//! descendants, so they add no edge either.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// A module path inside its crate (`["validate", "images"]`; empty: the root).
type ModPath = Vec<String>;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tok<'s> {
    Ident(&'s str),
    /// `::`
    PathSep,
    Punct(u8),
}

/// Tokens of Rust source, with their lines; comments, string, char and
/// number literals and lifetimes are dropped.
fn tokens(src: &str) -> Vec<(Tok<'_>, u32)> {
    let b = src.as_bytes();
    let (mut i, mut line, mut out) = (0, 1u32, Vec::new());
    let ident_start = |c: u8| c == b'_' || c.is_ascii_alphabetic();
    let ident_char = |c: u8| c == b'_' || c.is_ascii_alphanumeric();
    let at = |k: usize| b.get(k).copied().unwrap_or(0);
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            _ if c.is_ascii_whitespace() => i += 1,
            b'/' if at(i + 1) == b'/' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if at(i + 1) == b'*' => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && at(i + 1) == b'*' {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && at(i + 1) == b'/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        line += (b[i] == b'\n') as u32;
                        i += 1;
                    }
                }
            }
            b'"' => i = skip_string(b, i + 1, &mut line),
            b'\'' => {
                // A char literal ('x', '\n', '\u{..}', 'é') or a lifetime.
                let len = utf8_len(at(i + 1));
                if at(i + 1) == b'\\' {
                    i += 3;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else if at(i + 1 + len) == b'\'' {
                    i += 2 + len;
                } else {
                    i += 1;
                    while i < b.len() && ident_char(b[i]) {
                        i += 1;
                    }
                }
            }
            _ if c.is_ascii_digit() => {
                while i < b.len() && ident_char(b[i]) {
                    i += 1;
                }
            }
            _ if ident_start(c) => {
                let start = i;
                while i < b.len() && ident_char(b[i]) {
                    i += 1;
                }
                let word = &src[start..i];
                let hashes = b[i..].iter().take_while(|&&h| h == b'#').count();
                match word {
                    // Byte and C strings, raw strings, byte chars.
                    "b" | "c" if at(i) == b'"' => i = skip_string(b, i + 1, &mut line),
                    "b" if at(i) == b'\'' => {
                        i += 1;
                        while i < b.len() && b[i] != b'\'' {
                            i += 1 + (b[i] == b'\\') as usize;
                        }
                        i += 1;
                    }
                    "r" | "br" | "cr" if at(i + hashes) == b'"' => {
                        let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                        i += hashes + 1;
                        while i < b.len() && !b[i..].starts_with(&close) {
                            line += (b[i] == b'\n') as u32;
                            i += 1;
                        }
                        i += close.len();
                    }
                    // A raw identifier.
                    "r" if hashes == 1 && ident_start(at(i + 1)) => {
                        let start = i + 1;
                        i = start;
                        while i < b.len() && ident_char(b[i]) {
                            i += 1;
                        }
                        out.push((Tok::Ident(&src[start..i]), line));
                    }
                    _ => out.push((Tok::Ident(word), line)),
                }
            }
            b':' if at(i + 1) == b':' => {
                out.push((Tok::PathSep, line));
                i += 2;
            }
            _ => {
                if c.is_ascii() {
                    out.push((Tok::Punct(c), line));
                }
                i += 1;
            }
        }
    }
    out
}

/// The index after the closing quote of a string whose body starts at `i`.
fn skip_string(b: &[u8], mut i: usize, line: &mut u32) -> usize {
    while i < b.len() && b[i] != b'"' {
        *line += (b[i] == b'\n') as u32;
        i += 1 + (b[i] == b'\\') as usize;
    }
    i + 1
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

/// What one module's source says about the others.
#[derive(Default)]
struct Scope {
    /// Names bound by `use` items: name -> the path they stand for.
    names: HashMap<String, Vec<String>>,
    /// The paths of glob imports (`use super::*`).
    globs: Vec<Vec<String>>,
    /// Every path met, as written (relative to this module), and where.
    paths: Vec<(Vec<String>, String)>,
}

/// One crate target: its modules and what each one's source names.
#[derive(Default)]
struct Crate {
    scopes: BTreeMap<ModPath, Scope>,
    /// Module files declared but not found.
    missing: Vec<String>,
}

/// Reads the module tree rooted at `root_file` (`src/lib.rs` and the like).
fn read_crate(root_file: &Path, read: &dyn Fn(&Path) -> Option<String>, display_base: &Path) -> Crate {
    let mut krate = Crate::default();
    let dir = root_file.parent().unwrap().to_path_buf();
    let mut queue = vec![(vec![root_file.to_path_buf()], ModPath::new(), dir)];
    while let Some((candidates, module, dir)) = queue.pop() {
        let Some((file, src)) = candidates.iter().find_map(|f| Some((f, read(f)?))) else {
            krate.missing.push(candidates[0].display().to_string());
            continue;
        };
        let shown = file.strip_prefix(display_base).unwrap_or(file).display().to_string();
        let toks = tokens(&src);
        scan_module(&toks, &mut 0, &module, &dir, &shown, &mut krate, &mut queue);
    }
    krate
}

/// A module file to read: (`x.rs` or else `x/mod.rs`, its module path, the
/// directory of its child modules' files).
type Queued = (Vec<PathBuf>, ModPath, PathBuf);

/// Scans the tokens of one module (a file, or an inline module's block
/// until its closing brace) from `*i`.
fn scan_module(
    toks: &[(Tok, u32)],
    i: &mut usize,
    module: &ModPath,
    dir: &Path,
    file: &str,
    krate: &mut Crate,
    queue: &mut Vec<Queued>,
) {
    let mut scope = Scope::default();
    let mut cfg_test = false;
    let mut depth = 0usize;
    let tok = |k: usize| toks.get(k).map(|t| t.0);
    while let Some(t) = tok(*i) {
        let line = toks[*i].1;
        match t {
            Tok::Punct(b'#') => {
                // An attribute: note `#[cfg(test)]`, skip the rest.
                let inner = tok(*i + 1) == Some(Tok::Punct(b'!'));
                let open = *i + 1 + inner as usize;
                if tok(open) != Some(Tok::Punct(b'[')) {
                    *i += 1;
                    continue;
                }
                let end = matching(toks, open);
                let body: Vec<Tok> = toks[open + 1..end].iter().map(|t| t.0).collect();
                let test = [Tok::Ident("cfg"), Tok::Punct(b'('), Tok::Ident("test"), Tok::Punct(b')')];
                if !inner && body == test {
                    cfg_test = true;
                }
                *i = end + 1;
                continue;
            }
            Tok::Ident("pub") => {
                // Visibility keeps a pending `#[cfg(test)]`; `pub(in crate::a)`
                // names an ancestor, so it adds no edge.
                *i += 1;
                if tok(*i) == Some(Tok::Punct(b'(')) {
                    *i = matching(toks, *i) + 1;
                }
                continue;
            }
            Tok::Ident("mod") => {
                if let (Some(Tok::Ident(name)), Some(next)) = (tok(*i + 1), tok(*i + 2)) {
                    let child: ModPath = module.iter().cloned().chain([name.to_string()]).collect();
                    if next == Tok::Punct(b'{') {
                        *i += 2;
                        if cfg_test {
                            *i = matching(toks, *i) + 1;
                        } else {
                            *i += 1;
                            scan_module(toks, i, &child, &dir.join(name), file, krate, queue);
                        }
                    } else {
                        *i += 3;
                        if !cfg_test {
                            let files = vec![dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")];
                            queue.push((files, child, dir.join(name)));
                        }
                    }
                    cfg_test = false;
                    continue;
                }
            }
            Tok::Ident("use") => {
                let end = (*i..toks.len()).find(|&k| tok(k) == Some(Tok::Punct(b';'))).unwrap_or(toks.len());
                let mut k = *i + 1;
                // `use ::std::..` names another crate.
                if tok(k) != Some(Tok::PathSep) {
                    let mut found = Vec::new();
                    use_tree(toks, &mut k, end, &mut Vec::new(), &mut found);
                    for (path, bind) in found {
                        match bind {
                            Some(name) if name != "_" => {
                                scope.names.insert(name, path.clone());
                            }
                            Some(_) => {}
                            None => scope.globs.push(path.clone()),
                        }
                        scope.paths.push((path, format!("{file}:{line}")));
                    }
                }
                *i = end + 1;
                cfg_test = false;
                continue;
            }
            Tok::Ident(first) if tok(*i + 1) == Some(Tok::PathSep) && tok(i.wrapping_sub(1)) != Some(Tok::PathSep) => {
                // A path in code: `first::a::b`, up to its last name.
                let mut path = vec![first.to_string()];
                let mut k = *i + 1;
                while tok(k) == Some(Tok::PathSep) {
                    let Some(Tok::Ident(seg)) = tok(k + 1) else { break };
                    path.push(seg.to_string());
                    k += 2;
                }
                scope.paths.push((path, format!("{file}:{line}")));
                *i = k;
                cfg_test = false;
                continue;
            }
            Tok::Punct(b'{') => depth += 1,
            Tok::Punct(b'}') => {
                if depth == 0 {
                    // The end of an inline module.
                    *i += 1;
                    break;
                }
                depth -= 1;
            }
            _ => {}
        }
        cfg_test = false;
        *i += 1;
    }
    let merged = krate.scopes.entry(module.clone()).or_default();
    merged.names.extend(scope.names);
    merged.globs.extend(scope.globs);
    merged.paths.extend(scope.paths);
}

/// The index of the bracket closing the one at `open`.
fn matching(toks: &[(Tok, u32)], open: usize) -> usize {
    let mut depth = 0i32;
    for (k, (t, _)) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct(b'(' | b'[' | b'{') => depth += 1,
            Tok::Punct(b')' | b']' | b'}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

/// Expands a use tree from `*k` (before `end`) under `prefix` into
/// (path, bound name; None for a glob).
fn use_tree(
    toks: &[(Tok, u32)],
    k: &mut usize,
    end: usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let depth = prefix.len();
    loop {
        match toks.get(*k).map(|t| t.0).filter(|_| *k < end) {
            Some(Tok::Ident(seg)) => {
                *k += 1;
                if seg == "self" && depth > 0 && prefix.len() == depth {
                    // `{self, ..}`: the prefix itself.
                } else {
                    prefix.push(seg.to_string());
                }
                if toks.get(*k).map(|t| t.0) == Some(Tok::PathSep) {
                    *k += 1;
                    continue;
                }
                let mut bind = prefix.last().cloned();
                if toks.get(*k).map(|t| t.0) == Some(Tok::Ident("as")) {
                    bind = match toks.get(*k + 1).map(|t| t.0) {
                        Some(Tok::Ident(name)) => Some(name.to_string()),
                        _ => bind,
                    };
                    *k += 2;
                }
                out.push((prefix.clone(), Some(bind.unwrap_or_default())));
            }
            Some(Tok::Punct(b'*')) => {
                *k += 1;
                out.push((prefix.clone(), None));
            }
            Some(Tok::Punct(b'{')) => {
                *k += 1;
                loop {
                    use_tree(toks, k, end, prefix, out);
                    match toks.get(*k).map(|t| t.0) {
                        Some(Tok::Punct(b',')) => *k += 1,
                        _ => break,
                    }
                    if toks.get(*k).map(|t| t.0) == Some(Tok::Punct(b'}')) {
                        break;
                    }
                }
                *k += 1; // `}`
            }
            _ => {}
        }
        prefix.truncate(depth);
        return;
    }
}

/// The module graph of a crate: module -> module it names -> first place.
type Graph = BTreeMap<ModPath, BTreeMap<ModPath, (String, String)>>;

fn graph(krate: &Crate) -> Graph {
    let modules: BTreeSet<&ModPath> = krate.scopes.keys().collect();
    let mut g = Graph::new();
    for (module, scope) in &krate.scopes {
        let edges = g.entry(module.clone()).or_default();
        for (path, place) in &scope.paths {
            let Some(abs) = absolute(module, path, &krate.scopes, 0) else { continue };
            // The deepest module on the path.
            let target = (0..=abs.len()).rev().map(|n| &abs[..n]).find(|p| modules.contains(&p.to_vec())).unwrap();
            let nested = target.starts_with(module) || module.starts_with(target);
            if !nested {
                edges.entry(target.to_vec()).or_insert_with(|| (place.clone(), path.join("::")));
            }
        }
    }
    g
}

/// `path` as written in `module`, made absolute; None for another crate's
/// paths and names the module has not imported.
fn absolute(module: &ModPath, path: &[String], scopes: &BTreeMap<ModPath, Scope>, hops: u32) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let mut base = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.clone(),
        "super" => module[..module.len().checked_sub(1)?].to_vec(),
        _ if hops < 8 => {
            // A child module (no edge), a name bound by `use`, or one seen
            // through a glob import.
            let child: ModPath = module.iter().chain([first]).cloned().collect();
            if scopes.contains_key(&child) {
                return None;
            }
            let scope = scopes.get(module)?;
            if let Some(bound) = scope.names.get(first) {
                let mut abs = absolute(module, bound, scopes, hops + 1)?;
                abs.extend(rest.iter().cloned());
                return Some(abs);
            }
            return scope.globs.iter().find_map(|glob| {
                let from = absolute(module, glob, scopes, hops + 1)?;
                let child: ModPath = from.iter().chain([first]).cloned().collect();
                scopes.contains_key(&child).then(|| child.into_iter().chain(rest.iter().cloned()).collect())
            });
        }
        _ => return None,
    };
    let mut rest = rest;
    while let Some((_, more)) = rest.split_first().filter(|(s, _)| *s == "super") {
        base.pop()?;
        rest = more;
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(g: &Graph) -> Vec<Vec<ModPath>> {
    struct State<'g> {
        g: &'g Graph,
        index: HashMap<&'g ModPath, usize>,
        low: HashMap<&'g ModPath, usize>,
        stack: Vec<&'g ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.g[v].keys() {
            let Some((w, _)) = s.g.get_key_value(w) else { continue };
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.stack.contains(&w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let at = s.stack.iter().position(|x| *x == v).unwrap();
            let comp: Vec<ModPath> = s.stack.drain(at..).cloned().collect();
            if comp.len() > 1 {
                s.out.push(comp);
            }
        }
    }
    let mut s = State { g, index: HashMap::new(), low: HashMap::new(), stack: Vec::new(), out: Vec::new() };
    for v in g.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    for comp in &mut s.out {
        comp.sort();
    }
    s.out.sort();
    s.out
}

fn name(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// A report of the cycles of one crate target; empty when it has none.
fn report(label: &str, krate: &Crate) -> String {
    let g = graph(krate);
    let mut out = String::new();
    for file in &krate.missing {
        out += &format!("{label}: declared module file not found: {file}\n");
    }
    for comp in cycles(&g) {
        let names: Vec<String> = comp.iter().map(name).collect();
        out += &format!("{label}: import cycle among {} modules: {}\n", comp.len(), names.join(", "));
        for m in &comp {
            for (t, (place, path)) in g[m].iter().filter(|(t, _)| comp.contains(t)) {
                out += &format!("    {} -> {}  ({place}: {path})\n", name(m), name(t));
            }
        }
    }
    out
}

/// The crate targets of the workspace at `root`: (label, root file).
fn targets(root: &Path) -> Vec<(String, PathBuf)> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("workspace Cargo.toml");
    let members = manifest.split("members").nth(1).and_then(|s| s.split(']').next()).expect("workspace members");
    let mut out = Vec::new();
    for member in members.split('"').skip(1).step_by(2) {
        let src = root.join(member).join("src");
        let crate_name = Path::new(member).file_name().unwrap().to_string_lossy().into_owned();
        for file in ["lib.rs", "main.rs"] {
            if src.join(file).exists() {
                out.push((format!("{crate_name} ({file})"), src.join(file)));
            }
        }
        let mut bins: Vec<PathBuf> = std::fs::read_dir(src.join("bin"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .map(|p| if p.is_dir() { p.join("main.rs") } else { p })
            .filter(|p| p.extension().is_some_and(|e| e == "rs") && p.exists())
            .collect();
        bins.sort();
        for bin in bins {
            out.push((format!("{crate_name} ({})", bin.strip_prefix(&src).unwrap().display()), bin));
        }
    }
    out
}

#[test]
fn no_import_cycles_between_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let targets = targets(&root);
    let labels: Vec<&str> = targets.iter().map(|(l, _)| l.as_str()).collect();
    for expected in ["gpuasm-spirv", "gpuasm-mali", "gpuasm-diag", "gpuasm-cli"] {
        assert!(labels.iter().any(|l| l.starts_with(expected)), "{expected} not found among {labels:?}");
    }
    let mut problems = String::new();
    for (label, file) in &targets {
        let krate = read_crate(file, &|p| std::fs::read_to_string(p).ok(), &root);
        problems += &report(label, &krate);
    }
    assert!(problems.is_empty(), "the module graph must have no cycles (see this file for what counts):\n{problems}");
}

/// The scanner on a small tree: what it counts as an edge, and that it
/// finds cycles.
#[test]
fn the_scan_finds_cycles_and_only_cycles() {
    let files: HashMap<PathBuf, &str> = [
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\nmod e;\npub use a::Thing;\n"),
        // a -> b through a grouped import, b -> a through a path in code.
        ("src/a.rs", "use crate::{b::{self, Helper}, c as see};\npub struct Thing;\nmod inner;\n"),
        ("src/a/inner.rs", "use super::super::d::X; // d, from a::inner\n fn f() { super::Thing; }\n"),
        ("src/b.rs", "pub struct Helper;\nfn f() -> crate::a::Thing { todo!() }\n"),
        // c names its parent and its own child only; a comment and a string
        // naming e do not count; test modules do not count.
        (
            "src/c/mod.rs",
            "mod sub;\nuse self::sub::Y;\nuse crate::Thing;\n// crate::e::Z\nconst S: &str = \"crate::e::Z\";\n\
             #[cfg(test)]\nmod tests { use crate::e::Z; }\n#[cfg(test)]\nmod more;\n",
        ),
        ("src/c/sub.rs", "pub struct Y;\n"),
        // d -> e through a name imported with `use`; e -> d through a glob.
        ("src/d.rs", "pub struct X;\nuse super::e;\nfn f() { e::g(); }\n"),
        ("src/e.rs", "use super::*;\npub fn g() { d::X; }\n"),
    ]
    .into_iter()
    .map(|(p, s)| (PathBuf::from(p), s))
    .collect();
    let krate = read_crate(Path::new("src/lib.rs"), &|p| files.get(p).map(|s| s.to_string()), Path::new(""));
    let text = report("fixture", &krate);
    assert_eq!(
        text,
        "fixture: import cycle among 2 modules: a, b\n    a -> b  (src/a.rs:1: crate::b)\n    \
         b -> a  (src/b.rs:2: crate::a::Thing)\n\
         fixture: import cycle among 2 modules: d, e\n    d -> e  (src/d.rs:2: super::e)\n    \
         e -> d  (src/e.rs:2: d::X)\n"
    );
    let edges: Vec<(String, String)> =
        graph(&krate).iter().flat_map(|(m, ts)| ts.keys().map(move |t| (name(m), name(t)))).collect();
    let expect = [("a", "b"), ("a", "c"), ("a::inner", "d"), ("b", "a"), ("d", "e"), ("e", "d")];
    assert_eq!(edges, expect.map(|(m, t)| (m.to_string(), t.to_string())));
}
