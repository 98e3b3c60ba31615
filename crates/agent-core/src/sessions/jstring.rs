//! The end of a JSON string, checked as `JSON.parse` checks it: no control character (below
//! U+0020) in the body, every backslash starting one of the escapes `\" \\ \/ \b \f \n \r \t` or
//! `\u` with four hex digits. A lone surrogate escape (one `JSON.parse` takes but no Rust string
//! can hold) is reported.
//!
//! The body is looked at 64 bytes at a time (the first 16 alone, as most strings are short):
//! three bit masks (quotes, backslashes, control characters) from SIMD compares, the bytes the
//! backslashes escape from the backslash mask by bit arithmetic, so the closing quote is the
//! first quote not escaped; then each escaped byte is checked from a table (tool outputs in
//! transcripts have an escape every few bytes, `1\n2\n3\n…`: no search starts after each).
//!
//! [`end_utf8`] also checks that the body is UTF-8, for a scan of bytes read from a file: a
//! fourth mask (the bytes' top bits) tells a block of ASCII for almost nothing, and only the
//! characters outside ASCII are checked, one by one, as `std::str::from_utf8` checks them.

/// A string's end and what was met in it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct End {
    /// The index after the closing quote.
    pub at: usize,
    /// The body has a backslash.
    pub escaped: bool,
    /// The body has the `\u` escape of a lone surrogate.
    pub lone: bool,
}

/// Bit masks of the bytes of `b[at..at + 16]` (bit `k` for `b[at + k]`) that are `"`, `\\`,
/// below 0x20, and 0x80 or above. Past the end of `b`, no bit is set.
#[inline(always)]
fn masks(b: &[u8], at: usize) -> (u32, u32, u32, u32) {
    if let Some(w) = b.get(at..at + 16) {
        let mut block = [0u8; 16];
        block.copy_from_slice(w);
        return masks16(&block);
    }
    // The last bytes: padded with spaces (none of the three).
    let mut block = [b' '; 16];
    let rest = b.get(at..).unwrap_or_default();
    block[..rest.len()].copy_from_slice(rest);
    masks16(&block)
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn masks16(block: &[u8; 16]) -> (u32, u32, u32, u32) {
    use std::arch::x86_64::*;
    // SSE2 is part of every x86-64 processor.
    // SAFETY: the load reads the 16 bytes of `block` (unaligned loads are allowed).
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast());
        let q = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8))) as u32;
        let s = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8))) as u32;
        // Unsigned `v < 0x20` is `max(v, 0x1f) == 0x1f`.
        let low = _mm_set1_epi8(0x1f);
        let c = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, low), low)) as u32;
        // The top bits themselves.
        let h = _mm_movemask_epi8(v) as u32;
        (q, s, c, h)
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn masks16(block: &[u8; 16]) -> (u32, u32, u32, u32) {
    masks16_portable(block)
}

/// [`masks16`] eight bytes at a time in plain integers (other processors; the tests check the
/// two agree).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn masks16_portable(block: &[u8; 16]) -> (u32, u32, u32, u32) {
    const LO: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // 0x80 in each byte of `x` that is zero, exactly (no borrow between bytes).
    let zero = |x: u64| !(((x & LOW7) + LOW7) | x | LOW7);
    // The top bit of each byte gathered into the low eight bits.
    let gather = |m: u64| (((m >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u32;
    let mut out = (0, 0, 0, 0);
    for half in 0..2 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&block[half * 8..half * 8 + 8]);
        let x = u64::from_le_bytes(w);
        let q = zero(x ^ (LO * u64::from(b'"')));
        let s = zero(x ^ (LO * u64::from(b'\\')));
        // A byte below 0x20 has none of its top three bits set.
        let c = zero(x & (LO * 0xe0));
        let shift = half * 8;
        out.0 |= gather(q) << shift;
        out.1 |= gather(s) << shift;
        out.2 |= gather(c) << shift;
        out.3 |= gather(x & (LO * 0x80)) << shift;
    }
    out
}

/// [`masks`] of the 64 bytes at `b[at..]`, as 64-bit masks.
#[inline(always)]
fn masks64(b: &[u8], at: usize) -> (u64, u64, u64, u64) {
    let mut out = (0u64, 0u64, 0u64, 0u64);
    for k in 0..4 {
        let (q, s, c, h) = masks(b, at + 16 * k);
        out.0 |= u64::from(q) << (16 * k);
        out.1 |= u64::from(s) << (16 * k);
        out.2 |= u64::from(c) << (16 * k);
        out.3 |= u64::from(h) << (16 * k);
    }
    out
}

/// The bytes of a 64-byte block that a backslash escapes (bit `k` for byte `k`), from its
/// backslashes and whether the block before ended inside an odd run of them (`carry`, updated
/// for the next block): in a run of backslashes each odd one escapes the byte after it.
/// (simdjson's branchless method: the runs starting on odd bits are told from those starting on
/// even ones by an addition.)
#[inline(always)]
fn escaped_bytes(backslashes: u64, carry: &mut u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let backslashes = backslashes & !*carry;
    let follows = backslashes << 1 | *carry;
    let odd_starts = backslashes & !EVEN & !follows;
    let (sum, over) = odd_starts.overflowing_add(backslashes);
    *carry = u64::from(over);
    (EVEN ^ (sum << 1)) & follows
}

/// What the byte after a backslash makes: 2, a two-byte escape; 6, a `\\u` escape (its four
/// digits to check); 0, no escape `JSON.parse` takes. (A table, not a `match`: the escapes
/// follow one another unpredictably, and a jump table's branch mispredicts.)
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    let two = b"\"\\/bfnrt";
    while k < two.len() {
        t[two[k] as usize] = 2;
        k += 1;
    }
    t[b'u' as usize] = 6;
    t
};

/// The value of four hex digits, or `None`.
#[inline]
fn hex4(h: Option<&[u8]>) -> Option<u32> {
    let h = h?;
    let mut v = 0;
    for &c in h {
        let d = (c as char).to_digit(16)?;
        v = v << 4 | d;
    }
    Some(v)
}

/// For each first byte of a UTF-8 character outside ASCII: the character's length (0: no
/// character starts with it), the range of its second byte (`lo`, `hi - lo`), and a mask of the
/// third and fourth bytes it needs (each then 0x80 to 0xBF), packed as
/// `len | lo << 8 | span << 16` and the mask in the high half. The ranges `std::str::from_utf8`
/// takes: no overlong form, no surrogate, nothing above U+10FFFF (the Unicode standard's table
/// 3-7).
const LEAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut c = 0xC2;
    while c <= 0xF4 {
        let (len, lo, hi): (u64, u64, u64) = match c {
            0xC2..=0xDF => (2, 0x80, 0xBF),
            0xE0 => (3, 0xA0, 0xBF),
            0xED => (3, 0x80, 0x9F),
            0xE1..=0xEF => (3, 0x80, 0xBF),
            0xF0 => (4, 0x90, 0xBF),
            0xF4 => (4, 0x80, 0x8F),
            _ => (4, 0x80, 0xBF),
        };
        let tail: u64 = match len {
            2 => 0,
            3 => 0x00C0_0000,
            _ => 0xC0C0_0000,
        };
        t[c] = len | lo << 8 | (hi - lo) << 16 | tail << 32;
        c += 1;
    }
    t
};

/// The length of the UTF-8 character whose first byte is `b[p]` (0x80 or above), or `None`
/// when the bytes there are not one (see [`LEAD`]).
#[inline(always)]
fn utf8_len(b: &[u8], p: usize) -> Option<usize> {
    let info = LEAD[usize::from(b[p])];
    let len = (info & 0xff) as usize;
    let lo = (info >> 8) & 0xff;
    let span = (info >> 16) & 0xff;
    let tail = info >> 32;
    let w = match b.get(p..p + 4) {
        Some(w) => u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
        // The last bytes of `b`: a character that runs past them is not one.
        None => {
            let rest = &b[p..];
            if len == 0 || rest.len() < len {
                return None;
            }
            let mut w = [0u8; 4];
            w[..rest.len()].copy_from_slice(rest);
            u64::from(u32::from_le_bytes(w))
        }
    };
    let second = (w >> 8) & 0xff;
    let ok = (len != 0) & (second.wrapping_sub(lo) <= span) & (w & tail == tail & 0x8080_8080);
    ok.then_some(len)
}

/// The string whose opening quote is `b[open]`: where it ends, or `None` when it is not a JSON
/// string (see the module's text) or has no closing quote in `b`.
#[inline(never)]
pub(crate) fn end(b: &[u8], open: usize) -> Option<End> {
    end_of::<CHECK>(b, open)
}

/// [`end`], and `None` too when the body is not UTF-8 (its bytes 0x80 and above are checked).
#[inline(never)]
pub(crate) fn end_utf8(b: &[u8], open: usize) -> Option<End> {
    end_of::<UTF8>(b, open)
}

/// The end of a string [`end`] has already taken (in text read again): the first quote no
/// backslash escapes, with nothing else checked (`lone` is not told).
#[inline(never)]
pub(crate) fn end_taken(b: &[u8], open: usize) -> Option<End> {
    end_of::<TAKEN>(b, open)
}

/// [`end_of`]'s modes: [`end`], [`end_utf8`], [`end_taken`].
const CHECK: u8 = 0;
const UTF8: u8 = 1;
const TAKEN: u8 = 2;

#[inline(always)]
fn end_of<const MODE: u8>(b: &[u8], open: usize) -> Option<End> {
    let mut out = End {
        at: 0,
        escaped: false,
        lone: false,
    };
    let mut pos = open + 1;
    // Most strings of a line are short keys and ids: a quote in the first 16 bytes, before any
    // backslash or control character.
    let (q, s, c, h) = masks(b, pos);
    let fq = q.trailing_zeros();
    let stops = match MODE {
        UTF8 => s | c | h,
        TAKEN => s,
        _ => s | c,
    };
    if fq < 16 && stops & ((1 << fq) - 1) == 0 {
        out.at = pos + fq as usize + 1;
        return Some(out);
    }
    // 64 bytes at a time.
    let mut carry = 0u64;
    // The place of the `u` of a low surrogate's escape that ends a pair (checked with it).
    let mut paired = usize::MAX;
    // (UTF8) The index after the last character outside ASCII checked (one may run into the
    // next block).
    let mut checked = 0usize;
    loop {
        if pos >= b.len() {
            return None;
        }
        let (q, s, c, h) = masks64(b, pos);
        let escaped = escaped_bytes(s, &mut carry);
        let closing = q & !escaped;
        // The bytes of the body in this block.
        let body = match closing.trailing_zeros() {
            64 => !0u64,
            n => (1u64 << n) - 1,
        };
        if MODE != TAKEN && c & body != 0 {
            return None;
        }
        if MODE == UTF8 {
            // Each character outside ASCII from its first byte; the bytes a checked one covers
            // are passed over, and a byte 0x80 or above anywhere else does not start one.
            let mut h = h & body;
            while h != 0 {
                let skip = checked.saturating_sub(pos);
                if skip >= 64 {
                    break;
                }
                h &= !0u64 << skip;
                if h == 0 {
                    break;
                }
                let p = pos + h.trailing_zeros() as usize;
                checked = p + utf8_len(b, p)?;
            }
        }
        out.escaped |= s & body != 0;
        // (A backslash ending `b` marks the byte past it, which is not there.)
        let there = match b.len() - pos {
            n if n >= 64 => !0u64,
            n => (1u64 << n) - 1,
        };
        let mut e = if MODE == TAKEN { 0 } else { escaped & body & there };
        while e != 0 {
            let at = pos + e.trailing_zeros() as usize;
            e &= e - 1;
            match ESCAPE[usize::from(b[at])] {
                2 => {}
                0 => return None,
                _ => {
                    let unit = hex4(b.get(at + 1..at + 5))?;
                    if at == paired {
                        continue;
                    }
                    match unit {
                        // A high surrogate followed by the escape of a low one is a pair.
                        0xD800..=0xDBFF
                            if b.get(at + 5..at + 7) == Some(b"\\u")
                                && matches!(hex4(b.get(at + 7..at + 11)), Some(0xDC00..=0xDFFF)) =>
                        {
                            paired = at + 6;
                        }
                        0xD800..=0xDFFF => out.lone = true,
                        _ => {}
                    }
                }
            }
        }
        if closing != 0 {
            out.at = pos + closing.trailing_zeros() as usize + 1;
            return Some(out);
        }
        pos += 64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `JSON.parse` (and serde_json, which refuses lone surrogates where it takes them)
    /// says of the string starting at `text[0]`, byte by byte: the reference the SIMD scan is
    /// compared with.
    fn reference(b: &[u8]) -> Option<End> {
        let mut out = End {
            at: 0,
            escaped: false,
            lone: false,
        };
        let mut i = 1;
        loop {
            let c = *b.get(i)?;
            match c {
                b'"' => {
                    out.at = i + 1;
                    return Some(out);
                }
                0..=0x1f => return None,
                b'\\' => {
                    out.escaped = true;
                    match *b.get(i + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                        b'u' => {
                            let h = std::str::from_utf8(b.get(i + 2..i + 6)?).ok()?;
                            if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
                                return None;
                            }
                            let u = u32::from_str_radix(h, 16).ok()?;
                            i += 6;
                            if (0xD800..0xDC00).contains(&u) {
                                let low = b.get(i..i + 6).and_then(|l| {
                                    let h = std::str::from_utf8(&l[2..]).ok()?;
                                    (l.starts_with(b"\\u") && h.bytes().all(|c| c.is_ascii_hexdigit()))
                                        .then(|| u32::from_str_radix(h, 16).ok())
                                        .flatten()
                                });
                                if low.is_some_and(|l| (0xDC00..0xE000).contains(&l)) {
                                    i += 6;
                                } else {
                                    out.lone = true;
                                }
                            } else if (0xDC00..0xE000).contains(&u) {
                                out.lone = true;
                            }
                        }
                        _ => return None,
                    }
                }
                _ => i += 1,
            }
        }
    }

    fn agree(b: &[u8]) {
        let checked = end(b, 0);
        assert_eq!(checked, reference(b), "{:?}", String::from_utf8_lossy(b));
        // A string taken before: the same end and escape flag without the checks.
        if let Some(e) = checked {
            let taken = end_taken(b, 0).map(|t| (t.at, t.escaped));
            assert_eq!(taken, Some((e.at, e.escaped)), "{:?}", String::from_utf8_lossy(b));
        }
    }

    #[test]
    fn portable_masks_are_the_simd_masks() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let mut block = [0u8; 16];
            for c in &mut block {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *c = [b'"', b'\\', 0, 0x1f, 0x20, b'a', 0x7f, 0x80, 0xff, 0xdf, 0x9f, b'\n'][(seed % 12) as usize]
                    .wrapping_add(if seed & 0x1000 == 0 { 0 } else { (seed >> 20) as u8 });
            }
            let naive = block.iter().enumerate().fold((0, 0, 0, 0), |(q, s, c, h), (k, &x)| {
                (
                    q | u32::from(x == b'"') << k,
                    s | u32::from(x == b'\\') << k,
                    c | u32::from(x < 0x20) << k,
                    h | u32::from(x >= 0x80) << k,
                )
            });
            assert_eq!(masks16_portable(&block), naive, "{block:?}");
            assert_eq!(masks16(&block), naive, "{block:?}");
        }
    }

    /// Strings whose escapes fall at every offset against the 16-byte blocks and the 64-byte
    /// steps: the end, the escape flag and the lone flag as the byte-by-byte reading has them.
    #[test]
    fn escapes_at_every_block_offset() {
        let pieces: [&[u8]; 16] = [
            br#"\""#,
            br"\\",
            br"\/",
            br"\n",
            br"\u00e9",
            br"\ud83d\ude00",
            br"\ud800",
            br"\udc00",
            br"\ud800\u0041",
            br"\ud800\udbff",
            br"\\\\",
            br#"\\\""#,
            br"\\\n",
            "\u{e9}\u{1f600}".as_bytes(),
            b"x",
            br"\ud83d\\ude00",
        ];
        for (n, piece) in pieces.iter().enumerate() {
            for pad in 0..70 {
                for tail in [&b"\""[..], b"abc\"", br#"\""#, br"\\\\", b""] {
                    let mut s = vec![b'"'];
                    s.extend(std::iter::repeat_n(b'a', pad));
                    s.extend_from_slice(piece);
                    s.extend_from_slice(tail);
                    s.extend_from_slice(b"\"rest");
                    agree(&s);
                    // Unterminated: cut anywhere.
                    for cut in [s.len() - 5, s.len() - 6, pad + 1 + piece.len() / 2] {
                        agree(&s[..cut.max(1)]);
                    }
                }
            }
            let _ = n;
        }
    }

    /// Runs of backslashes before a quote: an even run leaves the quote closing the string, an
    /// odd one escapes it — at every place against the blocks.
    #[test]
    fn backslash_runs_before_quotes() {
        for pad in 0..70 {
            for run in 0..140 {
                let mut s = vec![b'"'];
                s.extend(std::iter::repeat_n(b'z', pad));
                s.extend(std::iter::repeat_n(b'\\', run));
                s.extend_from_slice(b"\"after\"");
                let r = end(&s, 0).unwrap();
                let close = if run % 2 == 0 { 1 + pad + run + 1 } else { s.len() };
                assert_eq!(r.at, close, "pad {pad} run {run}");
                assert_eq!(r.escaped, run > 0);
                agree(&s);
            }
        }
    }

    /// What `JSON.parse` refuses is refused wherever it falls: a control character raw in the
    /// body, an escape of anything else, `\u` without four hex digits, no closing quote.
    #[test]
    fn refuses_what_json_parse_refuses() {
        let bad: [&[u8]; 12] = [
            b"\t", b"\n", b"\x00", b"\x1f", br"\x", br"\'", br"\U0041", br"\u12G4", br"\u004", br"\ ", b"\\\t",
            br"\u00",
        ];
        for piece in bad {
            for pad in 0..50 {
                for after in 0..20 {
                    let mut s = vec![b'"'];
                    s.extend(std::iter::repeat_n(b'a', pad));
                    s.extend_from_slice(piece);
                    s.extend(std::iter::repeat_n(b'z', after));
                    s.push(b'"');
                    assert_eq!(end(&s, 0), None, "{:?}", String::from_utf8_lossy(&s));
                    agree(&s);
                }
            }
        }
        // Bytes 0x7f and above are not control characters to JSON.
        agree(b"\"\x7f\xc3\xa9\xe2\x80\x94\"");
        assert!(end(b"\"\x7f\"", 0).is_some());
    }

    /// An opening quote and up to `max_len` pieces, each `piece(k)` for a random `k` below
    /// `choices` (xorshift from `seed`).
    fn random_string<'p>(seed: &mut u64, max_len: u64, choices: u64, piece: impl Fn(usize) -> &'p [u8]) -> Vec<u8> {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let mut s = vec![b'"'];
        for _ in 0..next() % max_len {
            s.extend_from_slice(piece((next() % choices) as usize));
        }
        s
    }

    /// [`end_utf8`] as [`end`] and then `std::str::from_utf8` of the body say it.
    fn utf8_reference(b: &[u8]) -> Option<End> {
        end(b, 0).filter(|e| std::str::from_utf8(&b[1..e.at - 1]).is_ok())
    }

    /// A character's length as `std::str::from_utf8` takes it: every first byte and second
    /// byte, with the third and fourth from each range's edges and beyond.
    #[test]
    fn utf8_len_is_from_utf8() {
        let others = [
            0x00, b'"', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xe0, 0xf0, 0xff,
        ];
        let mut valid = 0;
        for first in 0x80..=0xffu8 {
            for second in 0..=0xffu8 {
                for third in others {
                    for fourth in others {
                        let b = [first, second, third, fourth];
                        let std = (2..=4).find(|&n| std::str::from_utf8(&b[..n]).is_ok());
                        assert_eq!(utf8_len(&b, 0), std, "{b:x?}");
                        valid += usize::from(std.is_some());
                        // Cut short: never read past the end.
                        for cut in 1..4 {
                            let std = (2..=cut).find(|&n| std::str::from_utf8(&b[..n]).is_ok());
                            assert_eq!(utf8_len(&b[..cut], 0), std, "{:x?}", &b[..cut]);
                        }
                    }
                }
            }
        }
        assert!(valid > 100_000, "{valid}");
    }

    /// Characters outside ASCII, good and bad, at every offset against the 16-byte blocks and
    /// the 64-byte steps (so that one runs from a block into the next), after ASCII and after
    /// escapes: [`end_utf8`] takes a body exactly when `from_utf8` does, and [`end`] is as it was.
    #[test]
    fn utf8_at_every_block_offset() {
        let pieces: [&[u8]; 22] = [
            "\u{e9}".as_bytes(),
            "\u{2014}\u{201c}".as_bytes(),
            "\u{1f916}".as_bytes(),
            "\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}".as_bytes(),
            b"\xff",
            b"\x80",
            b"\xbf\xbf",
            b"\xc3",
            b"\xc3\xc3\xa9",
            b"\xe2\x80",
            b"\xf0\x9f\xa4",
            b"\xc0\x80",
            b"\xc1\xbf",
            b"\xe0\x80\x80",
            b"\xe0\x9f\xbf",
            b"\xed\xa0\x80",
            b"\xf0\x80\x80\x80",
            b"\xf4\x90\x80\x80",
            b"\xf5\x80\x80\x80",
            b"\xe9\\n",
            b"\xe2\x80\\\x94",
            b"\xc3\xa9\xa9",
        ];
        let mut taken = 0;
        for piece in pieces {
            for pad in 0..140 {
                for lead in [&b""[..], br"\n", br"\\", "\u{e9}".as_bytes()] {
                    for tail in [&b""[..], b"\xe2\x80\x94", b"a", br"\n"] {
                        let mut s = vec![b'"'];
                        s.extend_from_slice(lead);
                        s.extend(std::iter::repeat_n(b'a', pad));
                        s.extend_from_slice(piece);
                        s.extend_from_slice(tail);
                        s.extend_from_slice(b"\"\xff\"");
                        let ours = end_utf8(&s, 0);
                        assert_eq!(ours, utf8_reference(&s), "{s:x?}");
                        assert_eq!(end(&s, 0), reference(&s), "{s:x?}");
                        taken += usize::from(ours.is_some());
                        // Unterminated: cut inside the piece.
                        let cut = 1 + lead.len() + pad + piece.len() / 2;
                        assert_eq!(end_utf8(&s[..cut], 0), None);
                    }
                }
            }
        }
        assert_eq!(taken, 4 * 140 * 4 * 4, "the four good pieces at every offset");
    }

    /// Random bodies of ASCII, escapes and bytes outside ASCII, good and bad: [`end_utf8`] as
    /// [`end`] and `from_utf8` say.
    #[test]
    fn random_utf8_strings() {
        let alphabet: [&[u8]; 12] = [
            b"a",
            b"\"",
            br"\",
            br"\n",
            b"\xc3",
            b"\xa9",
            b"\xe2",
            b"\x80",
            b"\x94",
            b"\xf0\x9f",
            b"\xff",
            b"\xed",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut taken = 0;
        for _ in 0..200_000 {
            let s = random_string(&mut seed, 100, 48, |k| match k {
                _ if k < alphabet.len() => alphabet[k],
                12..=23 => "\u{2014}".as_bytes(),
                24..=29 => "\u{e9}x".as_bytes(),
                _ => b"aaaa",
            });
            let ours = end_utf8(&s, 0);
            assert_eq!(ours, utf8_reference(&s), "{s:x?}");
            taken += usize::from(ours.is_some());
        }
        assert!(taken > 10_000, "{taken}");
    }

    /// Random bodies from the bytes that matter, cut and ended anywhere.
    #[test]
    fn random_strings_read_as_byte_by_byte() {
        let alphabet: [&[u8]; 14] = [
            b"a",
            b"\"",
            br"\",
            br"\\",
            br"\n",
            br#"\""#,
            br"\u",
            b"d83d",
            b"dc00",
            b"0",
            b"\x01",
            b"\xc3\xa9",
            b"u",
            b"/",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            // Mostly plain letters, so that some strings run past a block.
            let s = random_string(&mut seed, 120, 40, |k| {
                if k >= alphabet.len() {
                    b"aaaa"
                } else {
                    alphabet[k]
                }
            });
            agree(&s);
        }
    }
}
