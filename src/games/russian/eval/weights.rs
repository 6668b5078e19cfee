// Hand-set weights, in the format `bashni tune` writes (src/tune/weights_file.rs) and reads (--from).
// Hand-set (issue 19): the starting point of `bashni tune --variant russian`, not yet tuned.

use super::features::NUM_FEATURES;

/// Opening and endgame weight of each feature (centi-men), in feature order.
#[rustfmt::skip]
pub const WEIGHTS: [[i32; 2]; NUM_FEATURES] = [
    [100, 100], // man
    [250, 300], // king
    [0, 0], // advance 0
    [0, 2], // advance 1
    [2, 4], // advance 2
    [4, 8], // advance 3
    [6, 14], // advance 4
    [10, 25], // advance 5
    [15, 40], // advance 6
    [0, 0], // advance 7
    [8, 0], // back rank
    [3, 3], // mobility
    [2, 3], // king rays
    [10, 20], // long diagonal
    [-15, -15], // exposed 0
    [-50, -60], // exposed 1
    [6, 2], // center
    [0, 0], // passed man 0
    [0, 5], // passed man 1
    [5, 10], // passed man 2
    [10, 20], // passed man 3
    [15, 35], // passed man 4
    [25, 55], // passed man 5
    [40, 80], // passed man 6
    [0, 0], // passed man 7
    [0, 0], // pst man 0
    [0, 0], // pst man 1
    [0, 0], // pst man 2
    [0, 0], // pst man 3
    [0, 0], // pst man 4
    [0, 0], // pst man 5
    [0, 0], // pst man 6
    [0, 0], // pst man 7
    [0, 0], // pst man 8
    [0, 0], // pst man 9
    [0, 0], // pst man 10
    [0, 0], // pst man 11
    [0, 0], // pst man 12
    [0, 0], // pst man 13
    [0, 0], // pst man 14
    [0, 0], // pst man 15
    [0, 0], // pst man 16
    [0, 0], // pst man 17
    [0, 0], // pst man 18
    [0, 0], // pst man 19
    [0, 0], // pst man 20
    [0, 0], // pst man 21
    [0, 0], // pst man 22
    [0, 0], // pst man 23
    [0, 0], // pst man 24
    [0, 0], // pst man 25
    [0, 0], // pst man 26
    [0, 0], // pst man 27
    [0, 0], // pst man 28
    [0, 0], // pst man 29
    [0, 0], // pst man 30
    [0, 0], // pst man 31
    [0, 0], // pst king 0
    [0, 0], // pst king 1
    [0, 0], // pst king 2
    [0, 0], // pst king 3
    [0, 0], // pst king 4
    [0, 0], // pst king 5
    [0, 0], // pst king 6
    [0, 0], // pst king 7
    [0, 0], // pst king 8
    [0, 0], // pst king 9
    [0, 0], // pst king 10
    [0, 0], // pst king 11
    [0, 0], // pst king 12
    [0, 0], // pst king 13
    [0, 0], // pst king 14
    [0, 0], // pst king 15
    [0, 0], // pst king 16
    [0, 0], // pst king 17
    [0, 0], // pst king 18
    [0, 0], // pst king 19
    [0, 0], // pst king 20
    [0, 0], // pst king 21
    [0, 0], // pst king 22
    [0, 0], // pst king 23
    [0, 0], // pst king 24
    [0, 0], // pst king 25
    [0, 0], // pst king 26
    [0, 0], // pst king 27
    [0, 0], // pst king 28
    [0, 0], // pst king 29
    [0, 0], // pst king 30
    [0, 0], // pst king 31
    [10, 5], // tempo
];
