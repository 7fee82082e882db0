//! Hex listings against the corpus: every Mesa program's `.hex` listing
//! (written by the corpus tools, not by this crate) reads as the words of
//! its `.ppbin`, and the words print as exactly that listing.

mod common;

use common::{mesa_programs, read_words};
use gpuasm_mali::hex::{from_listing, looks_like_listing, to_listing};

#[test]
fn corpus_listings_read_and_print_back() {
    let programs = mesa_programs();
    assert!(programs.len() > 100, "corpus missing");
    for bin in programs {
        let words = read_words(&bin);
        let listing = std::fs::read_to_string(bin.with_extension("hex")).unwrap();
        assert!(looks_like_listing(listing.as_bytes()), "{}", bin.display());
        assert_eq!(from_listing(&listing).unwrap(), words, "{}", bin.display());
        assert_eq!(to_listing(&words), listing, "{}", bin.display());
    }
}
