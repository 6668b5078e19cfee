// Hand-set (issue 33): material by what a column commands and holds, prisoners one capture
// from freedom, soldiers' advancement, mobility, hanging and edge columns, tempo; piece squares
// start at 0. Replace by running `bashni tune --variant lasca` (src/tune/weights_file.rs).
// Game: lasca (75 features)

use super::features::NUM_FEATURES;

/// Opening and endgame weight of each feature (centi-men), in feature order.
#[rustfmt::skip]
pub const WEIGHTS: [[i32; 2]; NUM_FEATURES] = [
    [100, 100], // soldier
    [250, 300], // officer
    [60, 70], // reserve 0
    [120, 140], // reserve 1
    [40, 40], // prisoner 0
    [80, 80], // prisoner 1
    [10, 10], // freeable 0
    [20, 20], // freeable 1
    [0, 0], // advance 0
    [4, 8], // advance 1
    [8, 16], // advance 2
    [14, 28], // advance 3
    [22, 44], // advance 4
    [35, 70], // advance 5
    [0, 0], // advance 6
    [4, 4], // mobility
    [-30, -30], // hanging
    [5, 5], // edge
    [0, 0], // pst soldier 0
    [0, 0], // pst soldier 1
    [0, 0], // pst soldier 2
    [0, 0], // pst soldier 3
    [0, 0], // pst soldier 4
    [0, 0], // pst soldier 5
    [0, 0], // pst soldier 6
    [0, 0], // pst soldier 7
    [0, 0], // pst soldier 8
    [0, 0], // pst soldier 9
    [0, 0], // pst soldier 10
    [0, 0], // pst soldier 11
    [0, 0], // pst soldier 12
    [0, 0], // pst soldier 13
    [0, 0], // pst soldier 14
    [0, 0], // pst soldier 15
    [0, 0], // pst soldier 16
    [0, 0], // pst soldier 17
    [0, 0], // pst soldier 18
    [0, 0], // pst soldier 19
    [0, 0], // pst soldier 20
    [0, 0], // pst soldier 21
    [0, 0], // pst soldier 22
    [0, 0], // pst soldier 23
    [0, 0], // pst soldier 24
    [0, 0], // pst soldier 25
    [0, 0], // pst soldier 26
    [0, 0], // pst soldier 27
    [0, 0], // pst officer 0
    [0, 0], // pst officer 1
    [0, 0], // pst officer 2
    [0, 0], // pst officer 3
    [0, 0], // pst officer 4
    [0, 0], // pst officer 5
    [0, 0], // pst officer 6
    [0, 0], // pst officer 7
    [0, 0], // pst officer 8
    [0, 0], // pst officer 9
    [0, 0], // pst officer 10
    [0, 0], // pst officer 11
    [0, 0], // pst officer 12
    [0, 0], // pst officer 13
    [0, 0], // pst officer 14
    [0, 0], // pst officer 15
    [0, 0], // pst officer 16
    [0, 0], // pst officer 17
    [0, 0], // pst officer 18
    [0, 0], // pst officer 19
    [0, 0], // pst officer 20
    [0, 0], // pst officer 21
    [0, 0], // pst officer 22
    [0, 0], // pst officer 23
    [0, 0], // pst officer 24
    [0, 0], // pst officer 25
    [0, 0], // pst officer 26
    [0, 0], // pst officer 27
    [10, 5], // tempo
];
