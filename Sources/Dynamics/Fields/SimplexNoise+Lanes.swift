import Foundation

// SimplexNoise.sample at a point per lane, bit for bit (see FieldLaw+Lanes.swift for how the
// lanes keep the scalar code's bits). The lattice hash runs in `UInt32` lanes, the corners'
// contributions in `Double` lanes; a corner outside a lane's kernel adds nothing to that lane.

extension SimplexNoise {
    /// `sample(_:_:_:cosine:sine:seed:)` at the points (`x[i]`, `y[i]`, `z`) of the lanes.
    @inline(__always)
    static func sample(
        _ x: FieldLanes, _ y: FieldLanes, _ z: Double, cosine: Double, sine: Double,
        seed: UInt32
    ) -> (value: FieldLanes, dx: FieldLanes, dy: FieldLanes) {
        let zero = FieldLanes(repeating: 0)
        let limit = FieldLanes(repeating: coordinateLimit)
        // Lanes outside the lattice answer zero; they are computed at the origin so that no
        // conversion below sees a value it cannot hold.
        let inside = (laneMagnitude(x) .< limit) .& (laneMagnitude(y) .< limit)
        guard abs(z) < coordinateLimit, any(inside) else { return (zero, zero, zero) }
        let x = x.replacing(with: zero, where: .!inside), y = y.replacing(with: zero, where: .!inside)
        let z = FieldLanes(repeating: z)
        let f3 = 1.0 / 3.0, g3 = 1.0 / 6.0
        let s = (x + y + z) * f3
        let fi = floorLanes(x + s), fj = floorLanes(y + s), fk = floorLanes(z + s)
        let t = (fi + fj + fk) * g3
        let x0 = x - (fi - t), y0 = y - (fj - t), z0 = z - (fk - t)
        let i = lattice(fi), j = lattice(fj), k = lattice(fk)

        let xy = x0 .>= y0, xz = x0 .>= z0, yz = y0 .>= z0
        let i1 = xy .& xz, j1 = .!xy .& yz, k1 = .!xz .& .!yz
        let i2 = xy .| xz, j2 = .!xy .| yz, k2 = .!xz .| .!yz
        let x1 = x0 - unit(i1) + g3, y1 = y0 - unit(j1) + g3, z1 = z0 - unit(k1) + g3
        let x2 = x0 - unit(i2) + 2 * g3, y2 = y0 - unit(j2) + 2 * g3, z2 = z0 - unit(k2) + 2 * g3
        let x3 = x0 - 1 + 3 * g3, y3 = y0 - 1 + 3 * g3, z3 = z0 - 1 + 3 * g3

        // The hash's products of the lattice coordinates, once: a corner one step along an axis
        // adds that axis's multiplier ((i + 1)·m = i·m + m, wrapping). SSE2 has no 32-bit lane
        // multiply; each costs several instructions.
        let hi = i &* hashI, hj = j &* hashJ, hk = k &* hashK
        let sd = FieldLaneWords(repeating: seed)
        var sum = LaneSum()
        corner(x0, y0, z0, mix(sd ^ hi ^ hj ^ hk), cosine, sine, &sum)
        let h1 = sd ^ step(hi, i1, hashI) ^ step(hj, j1, hashJ) ^ step(hk, k1, hashK)
        let h2 = sd ^ step(hi, i2, hashI) ^ step(hj, j2, hashJ) ^ step(hk, k2, hashK)
        corner(x1, y1, z1, mix(h1), cosine, sine, &sum)
        corner(x2, y2, z2, mix(h2), cosine, sine, &sum)
        corner(x3, y3, z3, mix(sd ^ (hi &+ hashI) ^ (hj &+ hashJ) ^ (hk &+ hashK)), cosine, sine, &sum)
        return (
            (scale * sum.value).replacing(with: zero, where: .!inside),
            (scale * sum.dx).replacing(with: zero, where: .!inside),
            (scale * sum.dy).replacing(with: zero, where: .!inside)
        )
    }

    /// The lanes' running sums of the corner contributions.
    private struct LaneSum {
        var value = FieldLanes(repeating: 0), dx = FieldLanes(repeating: 0), dy = FieldLanes(repeating: 0)
    }

    /// 1.5·2⁵²: adding it to a `Double` of magnitude below 2⁵¹ rounds it to an integer, and that
    /// integer's two's complement is then the low bits of the sum's bit pattern.
    private static var integerShift: Double { 6_755_399_441_055_744 }

    /// `floor` in every lane, exactly, for |x| < 2⁵¹: x rounded to an integer (by adding and
    /// subtracting `integerShift`), one less where that rounded up; floor(±0) is ±0. (SSE2 has no
    /// rounding instruction, and a conversion to `Int64` checks its range lane by lane.)
    @inline(__always)
    private static func floorLanes(_ x: FieldLanes) -> FieldLanes {
        let rounded = (x + integerShift) - integerShift
        var r = rounded.replacing(with: rounded - 1, where: rounded .> x)
        r.replace(with: x, where: x .== 0)
        return r
    }

    /// The lattice coordinate of an integral `Double` lane of magnitude below 2⁵¹, wrapped to 32
    /// bits (the low bits of its two's complement, as `UInt32(truncatingIfNeeded: Int64(f))`).
    @inline(__always)
    private static func lattice(_ f: FieldLanes) -> FieldLaneWords {
        FieldLaneWords(truncatingIfNeeded: unsafeBitCast(f + integerShift, to: FieldLaneBits.self))
    }

    /// 1 where `mask`, else 0, as `Double`s: the mask's all-ones lanes keep 1.0's bits.
    @inline(__always)
    private static func unit(_ mask: FieldLaneMask) -> FieldLanes {
        unsafeBitCast(bits(mask) & FieldLaneBits(repeating: 1.0.bitPattern), to: FieldLanes.self)
    }

    /// A mask's lanes as bits: all ones where it is set, else zero.
    @inline(__always)
    private static func bits(_ mask: FieldLaneMask) -> FieldLaneBits {
        unsafeBitCast(mask, to: FieldLaneBits.self)
    }

    /// The hash's product for a coordinate one step further where `mask` is set: `product` plus
    /// the axis's `multiplier` there ((c + 1)·m = c·m + m, wrapping).
    @inline(__always)
    private static func step(
        _ product: FieldLaneWords, _ mask: FieldLaneMask, _ multiplier: UInt32
    ) -> FieldLaneWords {
        product &+ (FieldLaneWords(truncatingIfNeeded: bits(mask)) & multiplier)
    }

    /// `corner` in every lane: lanes where the corner is outside the kernel (t ≤ 0, or NaN) add
    /// nothing, as the scalar code returns early.
    @inline(__always)
    private static func corner(
        _ x: FieldLanes, _ y: FieldLanes, _ z: FieldLanes, _ h: FieldLaneWords,
        _ cosine: Double, _ sine: Double, _ sum: inout LaneSum
    ) {
        let t = 0.5 - x * x - y * y - z * z
        let inside = t .> 0
        guard any(inside) else { return }
        let (gx, gy, gz) = gradient(h, cosine, sine)
        let dot = gx * x + gy * y + gz * z
        let t2 = t * t
        let t4 = t2 * t2
        let slope = -8 * t2 * t * dot
        sum.value.replace(with: sum.value + t4 * dot, where: inside)
        sum.dx.replace(with: sum.dx + (slope * x + t4 * gx), where: inside)
        sum.dy.replace(with: sum.dy + (slope * y + t4 * gy), where: inside)
    }

    /// `gradient` in every lane, by bit operations: the signs of **u** are 1.0's sign bit flipped by
    /// the hash's low bits, and **w**'s components are picked with all-ones lane masks (SSE2 has no
    /// 64-bit lane compare, so selects on masks compared per lane cost several instructions each).
    /// The components are the selects' bit for bit, ±0 included.
    @inline(__always)
    private static func gradient(
        _ h: FieldLaneWords, _ cosine: Double,
        _ sine: Double
    ) -> (FieldLanes, FieldLanes, FieldLanes) {
        let one = FieldLaneBits(repeating: 1.0.bitPattern)
        let h64 = FieldLaneBits(truncatingIfNeeded: h)
        let ux = one ^ ((h64 & 1) &<< 63), uy = one ^ ((h64 & 2) &<< 62), uz = one ^ ((h64 & 4) &<< 61)
        let sx = unsafeBitCast(ux, to: FieldLanes.self)
        let sy = unsafeBitCast(uy, to: FieldLanes.self)
        let sz = unsafeBitCast(uz, to: FieldLanes.self)
        guard sine != 0 else { return (cosine * sx, cosine * sy, cosine * sz) }
        // (sy, −sx, 0), (0, sz, −sy), (−sz, 0, sx), (−sy, sx, 0) by bits 8 and 9
        let sign = FieldLaneBits(repeating: 0x8000_0000_0000_0000)
        let b0 = (h64 &>> 8) & 1, b1 = (h64 &>> 9) & 1
        let zero = FieldLaneBits(repeating: 0)
        let c0 = zero &- ((b0 ^ 1) & (b1 ^ 1)), c1 = zero &- (b0 & (b1 ^ 1))
        let c2 = zero &- ((b0 ^ 1) & b1), c3 = zero &- (b0 & b1)
        let w0 = (uy & c0) | ((uz ^ sign) & c2) | ((uy ^ sign) & c3)
        let w1 = ((ux ^ sign) & c0) | (uz & c1) | (ux & c3)
        let w2 = ((uy ^ sign) & c1) | (ux & c2)
        let c = cosine, s = sine * 1.5.squareRoot()
        return (
            c * sx + s * unsafeBitCast(w0, to: FieldLanes.self),
            c * sy + s * unsafeBitCast(w1, to: FieldLanes.self),
            c * sz + s * unsafeBitCast(w2, to: FieldLanes.self)
        )
    }

    /// The scalar hash's finaliser in every lane, on seed ^ i·hashI ^ j·hashJ ^ k·hashK.
    @inline(__always)
    private static func mix(_ start: FieldLaneWords) -> FieldLaneWords {
        var h = start
        h ^= h &>> 16
        h &*= 0x85EB_CA6B
        h ^= h &>> 13
        h &*= 0xC2B2_AE35
        h ^= h &>> 16
        return h
    }
}
