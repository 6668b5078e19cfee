//! Unit tests of the coder: round trips, and decoding in steps against decoding whole.

use super::*;

/// A pseudo-random sequence (xorshift), for data with runs and noise.
fn noise(n: usize, seed: u64) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

/// Classes in runs of `run` slots, one slot in about `every` a random class instead.
fn runs_with_noise(r: &[u64], run: usize, every: u64) -> Vec<u8> {
    r.iter()
        .enumerate()
        .map(|(i, x)| {
            if x % every == 0 {
                (x % 5) as u8
            } else {
                (i / run % 5) as u8
            }
        })
        .collect()
}

#[test]
fn classes_and_distances_round_trip() {
    let r = noise(5000, 7);
    let classes = runs_with_noise(&r, 300, 10);
    let optional: Vec<bool> = r.iter().map(|x| x % 7 == 3).collect();
    let distances: Vec<u16> = r.iter().map(|x| ((x >> 8) % 600) as u16).collect();
    let mut counts = Counts::default();
    count_wdl(&classes, &optional, &mut counts);
    let prior = counts.prior();
    assert_ne!(prior, Prior::default());
    let (bytes, filled) = encode_wdl(&classes, &optional, &prior);
    let (plain, _) = encode_wdl(&classes, &optional, &Prior::default());
    assert!(bytes.len() < plain.len(), "{} {}", bytes.len(), plain.len());
    let mut out = Vec::new();
    decode_wdl(&bytes, classes.len(), &prior, &mut out);
    assert_eq!(out, filled);
    for i in 0..classes.len() {
        if !optional[i] {
            assert_eq!(out[i], classes[i], "slot {i}");
        }
    }
    let dbytes = encode_distance(&filled, &distances, &optional);
    let mut d = Vec::new();
    decode_distance(&dbytes, &filled, &mut d);
    for i in 0..classes.len() {
        if !optional[i] && filled[i] != DRAW {
            assert_eq!(d[i], distances[i], "slot {i}");
        }
    }
}

#[test]
fn a_block_decoded_in_steps_is_the_block_decoded_whole() {
    let r = noise(4096, 11);
    let classes = runs_with_noise(&r, 200, 9);
    let optional = vec![false; classes.len()];
    let distances: Vec<u16> = r.iter().map(|x| ((x >> 8) % 700) as u16).collect();
    let prior = Prior::default();
    let (bytes, filled) = encode_wdl(&classes, &optional, &prior);
    let dbytes = encode_distance(&filled, &distances, &optional);
    let (mut whole, mut whole_d) = (Vec::new(), Vec::new());
    decode_wdl(&bytes, classes.len(), &prior, &mut whole);
    decode_distance(&dbytes, &whole, &mut whole_d);
    // Steps of every size, the first of one slot, as probes would ask for them.
    let (mut wc, mut dc) = (WdlCursor::new(&bytes, &prior), DistanceCursor::new(&dbytes));
    let (mut out, mut d) = (Vec::new(), Vec::new());
    let mut n = 1;
    for step in noise(64, 5).iter().map(|x| (x % 300) as usize) {
        n = (n + step).min(classes.len());
        wc.decode_to(&bytes, n, &mut out);
        assert_eq!(out, whole[..n]);
        if step % 3 != 0 {
            dc.decode_to(&dbytes, &out, &mut d);
            assert_eq!(d, whole_d[..n]);
        }
    }
    wc.decode_to(&bytes, classes.len(), &mut out);
    dc.decode_to(&dbytes, &out, &mut d);
    assert_eq!((out, d), (whole, whole_d));
}

#[test]
fn long_runs_cost_little_and_damage_does_not_panic() {
    let classes = vec![0u8; 4096];
    let optional = vec![false; 4096];
    let (bytes, _) = encode_wdl(&classes, &optional, &Prior::default());
    assert!(bytes.len() < 40, "{} bytes", bytes.len());
    let mut out = Vec::new();
    decode_wdl(&[0xFF; 7], 4096, &Prior([0; PRIOR]), &mut out);
    assert_eq!(out.len(), 4096);
    let mut d = Vec::new();
    decode_distance(&[0x5A; 3], &out, &mut d);
    assert_eq!(d.len(), 4096);
    decode_wdl(&[], 10, &Prior([255; PRIOR]), &mut out);
    assert_eq!(out.len(), 10);
}
