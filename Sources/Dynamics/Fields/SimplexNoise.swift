import Foundation

/// Seeded three-dimensional simplex gradient noise with its analytic derivative and rotating
/// gradients: the smooth, deterministic randomness behind the noise and turbulence fields.
///
/// What it models. iOS's noise and turbulence fields (PhysicsKit, shared with SpriteKit's
/// `SKFieldNode`) evaluate Stefan Gustavson's `srdnoise3` — simplex noise whose gradients rotate
/// with time, returning the value *n* and its derivative ∇*n* — and push items along *n*·∇*n*
/// (measured bit for bit by the charon project: kern0x1b/charon,
/// `packages/a/apple-backports/facts/UIKit/UIFieldBehavior.md`, §M7). This type provides the same
/// kind of function (value, derivative, gradients turned by an angle) with our own lattice hash;
/// the field scales its force so that its statistics match `srdnoise3`'s (see
/// `FieldLaw.noiseForceScale`).
///
/// Why it is shaped so. The field evaluates it once per item per step (tens of thousands of times
/// a step in a big scene), so it allocates nothing and reads no table: the gradients at a lattice
/// corner come from an integer hash of the corner and the seed (a MurmurHash3 finaliser), not from
/// a permutation array, which also makes every seed equally cheap and the result independent of
/// the process, the run and the platform (integer arithmetic wraps identically everywhere). The
/// kernel radius² is 0.5, not the 0.6 of many implementations, so the noise and its derivative are
/// continuous everywhere (0.6 leaves small steps at simplex borders).
///
/// Layout: the lattice is Ken Perlin's skewed simplex grid (Stefan Gustavson, "Simplex noise
/// demystified", 2005). At each corner the hash picks a cube-corner direction **u** (±1, ±1, ±1)
/// and a direction **w** of the same length √3 at right angles to it; the gradient is
/// cos θ·**u** + sin θ·**w**, so turning θ changes the pattern while keeping its statistics (the
/// "rotating gradients" of Perlin and Neyret's flow noise, which `srdnoise3` implements). The value
/// lies in about −1…1 (|value| < 0.996 at 2·10⁵ random points; root mean square 0.39), mean 0.
struct SimplexNoise {
    /// Coordinates beyond this magnitude (in lattice units) give zero noise instead of overflowing
    /// the integer lattice.
    static var coordinateLimit: Double { 1e15 }

    /// Scales the raw sum of the four corner contributions to about −1…1 (measured: the raw maximum
    /// over 2·10⁶ random points is 0.01608 with radius² 0.5 and cube-corner gradients).
    static var scale: Double { 62 }

    /// The noise and its derivative along x and y at (`x`, `y`, `z`), in lattice units, with every
    /// gradient turned by the angle whose cosine and sine are `cosine` and `sine`.
    ///
    /// - Parameters:
    ///   - x: The first coordinate (one lattice unit is one feature).
    ///   - y: The second coordinate.
    ///   - z: The third coordinate (time, for the fields).
    ///   - cosine: cos θ of the gradients' rotation (1 for none).
    ///   - sine: sin θ of the gradients' rotation (0 for none).
    ///   - seed: Chooses the pattern; equal seeds give equal noise.
    /// - Returns: The value (about −1…1) and its partial derivatives ∂n/∂x and ∂n/∂y (per lattice
    ///   unit; root mean square of the pair's length about 2.5).
    @inline(__always)
    static func sample(_ x: Double, _ y: Double, _ z: Double, cosine: Double = 1, sine: Double = 0,
                       seed: UInt32) -> (value: Double, dx: Double, dy: Double) {
        guard abs(x) < coordinateLimit, abs(y) < coordinateLimit, abs(z) < coordinateLimit else { return (0, 0, 0) }
        let f3 = 1.0 / 3.0, g3 = 1.0 / 6.0
        let s = (x + y + z) * f3
        let fi = floor(x + s), fj = floor(y + s), fk = floor(z + s)
        let t = (fi + fj + fk) * g3
        let x0 = x - (fi - t), y0 = y - (fj - t), z0 = z - (fk - t)
        let i = UInt32(truncatingIfNeeded: Int64(fi))
        let j = UInt32(truncatingIfNeeded: Int64(fj))
        let k = UInt32(truncatingIfNeeded: Int64(fk))

        // The second and third corners of the simplex containing the point (branch-free ranking).
        let xy = x0 >= y0, xz = x0 >= z0, yz = y0 >= z0
        let i1: UInt32 = xy && xz ? 1 : 0, j1: UInt32 = !xy && yz ? 1 : 0, k1: UInt32 = !xz && !yz ? 1 : 0
        let i2: UInt32 = xy || xz ? 1 : 0, j2: UInt32 = !xy || yz ? 1 : 0, k2: UInt32 = !xz || !yz ? 1 : 0
        let x1 = x0 - Double(i1) + g3, y1 = y0 - Double(j1) + g3, z1 = z0 - Double(k1) + g3
        let x2 = x0 - Double(i2) + 2 * g3, y2 = y0 - Double(j2) + 2 * g3, z2 = z0 - Double(k2) + 2 * g3
        let x3 = x0 - 1 + 3 * g3, y3 = y0 - 1 + 3 * g3, z3 = z0 - 1 + 3 * g3

        var sum = Sum()
        corner(x0, y0, z0, hash(i, j, k, seed), cosine, sine, &sum)
        corner(x1, y1, z1, hash(i &+ i1, j &+ j1, k &+ k1, seed), cosine, sine, &sum)
        corner(x2, y2, z2, hash(i &+ i2, j &+ j2, k &+ k2, seed), cosine, sine, &sum)
        corner(x3, y3, z3, hash(i &+ 1, j &+ 1, k &+ 1, seed), cosine, sine, &sum)
        return (scale * sum.value, scale * sum.dx, scale * sum.dy)
    }

    /// The running sums of the corner contributions.
    private struct Sum {
        var value = 0.0, dx = 0.0, dy = 0.0
    }

    /// Adds one corner's contribution t⁴·(**g**·**r**) and its x and y derivatives
    /// −8t³(**g**·**r**)·**r** + t⁴·**g**, with t = 0.5 − |**r**|².
    @inline(__always)
    private static func corner(_ x: Double, _ y: Double, _ z: Double, _ h: UInt32,
                               _ cosine: Double, _ sine: Double, _ sum: inout Sum) {
        let t = 0.5 - x * x - y * y - z * z
        guard t > 0 else { return }
        let (gx, gy, gz) = gradient(h, cosine, sine)
        let dot = gx * x + gy * y + gz * z
        let t2 = t * t
        let t4 = t2 * t2
        let slope = -8 * t2 * t * dot
        sum.value += t4 * dot
        sum.dx += slope * x + t4 * gx
        sum.dy += slope * y + t4 * gy
    }

    /// The corner's gradient cos θ·**u** + sin θ·**w**: **u** one of the 8 cube-corner directions
    /// (±1, ±1, ±1), picked by the low three bits of `h`; **w** one of four directions of length √3
    /// at right angles to it, picked by bits 8 and 9. Sign flips instead of branches for **u**,
    /// since random bits defeat prediction.
    @inline(__always)
    private static func gradient(_ h: UInt32, _ cosine: Double, _ sine: Double) -> (Double, Double, Double) {
        let sx = Double(bitPattern: 1.0.bitPattern ^ (UInt64(h & 1) << 63))
        let sy = Double(bitPattern: 1.0.bitPattern ^ (UInt64(h & 2) << 62))
        let sz = Double(bitPattern: 1.0.bitPattern ^ (UInt64(h & 4) << 61))
        guard sine != 0 else { return (cosine * sx, cosine * sy, cosine * sz) }
        // (sy, −sx, 0), (0, sz, −sy), (−sz, 0, sx), (−sy, sx, 0): each ⟂ u, of length √2.
        let w: (Double, Double, Double)
        switch (h >> 8) & 3 {
        case 0: w = (sy, -sx, 0)
        case 1: w = (0, sz, -sy)
        case 2: w = (-sz, 0, sx)
        default: w = (-sy, sx, 0)
        }
        let c = cosine, s = sine * 1.5.squareRoot()  // √1.5 brings w to u's length √3
        return (c * sx + s * w.0, c * sy + s * w.1, c * sz + s * w.2)
    }

    /// The hash's multipliers of the lattice coordinates (odd, well mixed).
    static var hashI: UInt32 { 0x8DA6_B343 }
    static var hashJ: UInt32 { 0xD816_3841 }
    static var hashK: UInt32 { 0xCB1A_B31F }

    /// A well-mixed 32-bit hash of a lattice corner and the seed.
    @inline(__always)
    private static func hash(_ i: UInt32, _ j: UInt32, _ k: UInt32, _ seed: UInt32) -> UInt32 {
        var h = seed ^ (i &* hashI) ^ (j &* hashJ) ^ (k &* hashK)
        h ^= h >> 16
        h &*= 0x85EB_CA6B
        h ^= h >> 13
        h &*= 0xC2B2_AE35
        h ^= h >> 16
        return h
    }

    /// Folds a 64-bit seed into the 32 bits the hash uses (SplitMix64's finaliser, then xor-fold).
    static func foldSeed(_ seed: UInt64) -> UInt32 {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return UInt32(truncatingIfNeeded: z ^ (z >> 32))
    }
}
