import Foundation

/// Seeded three-dimensional simplex gradient noise with two independent channels: the smooth,
/// deterministic randomness behind the noise and turbulence fields.
///
/// Why it is shaped so. The field evaluates it once per item per step (tens of thousands of times
/// a step in a big scene), so it allocates nothing and reads no table: the gradient at a lattice
/// corner comes from an integer hash of the corner and the seed (a MurmurHash3 finaliser), not from
/// a permutation array, which also makes every seed equally cheap and the result independent of
/// the process, the run and the platform (integer arithmetic wraps identically everywhere). One
/// hash per corner feeds both channels (bits 0…2 and 8…10 pick the two gradients), so a vector of
/// noise costs little more than a scalar, and nothing branches on the random bits. The kernel
/// radius² is 0.5, not the 0.6 of many implementations, so the noise is continuous everywhere
/// (0.6 leaves small steps at simplex borders).
///
/// Layout: the lattice is Ken Perlin's skewed simplex grid (Stefan Gustavson, "Simplex noise
/// demystified", 2005); gradients are the 8 cube-corner directions (±1, ±1, ±1). Each channel lies
/// in about −1…1 (|value| < 0.998 at 2·10⁶ random points; root mean square 0.39), with a mean of 0.
struct SimplexNoise {
    /// Coordinates beyond this magnitude (in lattice units) give zero noise instead of overflowing
    /// the integer lattice.
    static var coordinateLimit: Double { 1e15 }

    /// Scales the raw sum of the four corner contributions to about −1…1 (measured: the raw maximum
    /// over 2·10⁶ random points is 0.01608 with radius² 0.5 and cube-corner gradients).
    private static var scale: Double { 62 }

    /// The two noise channels at (`x`, `y`, `z`), in lattice units.
    ///
    /// - Parameters:
    ///   - x: The first coordinate (one lattice unit is one feature).
    ///   - y: The second coordinate.
    ///   - z: The third coordinate (time, for the fields).
    ///   - seed: Chooses the pattern; equal seeds give equal noise.
    /// - Returns: Two independent values, each in about −1…1.
    @inline(__always)
    static func sample(_ x: Double, _ y: Double, _ z: Double, seed: UInt32) -> (Double, Double) {
        guard abs(x) < coordinateLimit, abs(y) < coordinateLimit, abs(z) < coordinateLimit else { return (0, 0) }
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

        var a = 0.0, b = 0.0
        corner(x0, y0, z0, hash(i, j, k, seed), &a, &b)
        corner(x1, y1, z1, hash(i &+ i1, j &+ j1, k &+ k1, seed), &a, &b)
        corner(x2, y2, z2, hash(i &+ i2, j &+ j2, k &+ k2, seed), &a, &b)
        corner(x3, y3, z3, hash(i &+ 1, j &+ 1, k &+ 1, seed), &a, &b)
        return (scale * a, scale * b)
    }

    /// Adds one corner's contribution to both channels.
    @inline(__always)
    private static func corner(_ x: Double, _ y: Double, _ z: Double, _ h: UInt32, _ a: inout Double, _ b: inout Double) {
        var t = 0.5 - x * x - y * y - z * z
        guard t > 0 else { return }
        t *= t
        t *= t
        a += t * gradient(h, x, y, z)
        b += t * gradient(h >> 8, x, y, z)
    }

    /// The dot product of (x, y, z) with one of the 8 cube-corner directions (±1, ±1, ±1), picked by
    /// the low three bits of `h`; branch-free (sign flips), since random bits defeat prediction.
    @inline(__always)
    private static func gradient(_ h: UInt32, _ x: Double, _ y: Double, _ z: Double) -> Double {
        let sx = Double(bitPattern: x.bitPattern ^ (UInt64(h & 1) << 63))
        let sy = Double(bitPattern: y.bitPattern ^ (UInt64(h & 2) << 62))
        let sz = Double(bitPattern: z.bitPattern ^ (UInt64(h & 4) << 61))
        return sx + sy + sz
    }

    /// A well-mixed 32-bit hash of a lattice corner and the seed.
    @inline(__always)
    private static func hash(_ i: UInt32, _ j: UInt32, _ k: UInt32, _ seed: UInt32) -> UInt32 {
        var h = seed ^ (i &* 0x8DA6_B343) ^ (j &* 0xD816_3841) ^ (k &* 0xCB1A_B31F)
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
